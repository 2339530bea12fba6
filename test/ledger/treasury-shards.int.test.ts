import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ledgerAccounts } from "../../src/db/schema/index";
import {
  agentAccount,
  transfer,
  treasuryAccount,
  treasuryBalances,
  TREASURY_SHARDS,
  verifyLedger,
} from "../../src/features/ledger/ledger.service";
import { newId } from "../../src/lib/ids";
import { openMission } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { useTestApp } from "../helpers/suite-app";

// "writes that scale": the treasury is TREASURY_SHARDS accounts, so mission creations
// and awards no longer queue behind one locked row.

const t = useTestApp();

/** Mission ids whose fees land on two different shards. */
function idsOnTwoShards(): [string, string] {
  const a = newId("mis", Date.now());
  for (let i = 0; i < 1000; i++) {
    const b = newId("mis", Date.now());
    if (treasuryAccount(b) !== treasuryAccount(a)) return [a, b];
  }
  throw new Error("every mission id maps to one treasury account: the treasury is a single hot row");
}

describe("treasury shards", () => {
  it("a mission's fees go to one stable shard; ids spread over every shard", () => {
    const id = "mis_01JBQ7Z3X9K2M4N6P8R0T2V4W6";
    expect(treasuryAccount(id)).toBe(treasuryAccount(id));
    const seen = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const s = treasuryAccount(newId("mis", 1_790_000_000_000 + i * 997));
      seen.set(s, (seen.get(s) ?? 0) + 1);
    }
    expect([...seen.keys()].sort()).toEqual(Array.from({ length: TREASURY_SHARDS }, (_, k) => `treasury:${k}`).sort());
    // roughly even: no shard takes more than twice its share
    for (const n of seen.values()) expect(n).toBeLessThan((2 * 4000) / TREASURY_SHARDS);
  });

  it("the treasury balance is the sum of its shards and the pre-split account; the ledger verifies", async () => {
    const db = t.deps.database.db;
    const before = (await treasuryBalances(db)).get("USDC") ?? 0n;
    const { mission } = await openMission(t);
    await openMission(t);
    const fees = await db
      .select({ account: ledgerAccounts.account, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(sql`${ledgerAccounts.account} like 'treasury:%' and ${ledgerAccounts.asset} = 'USDC'`);
    const sum = fees.reduce((s, r) => s + BigInt(r.balance), 0n);
    expect(sum).toBeGreaterThan(before);
    expect(fees.map((f) => f.account)).toContain(treasuryAccount(mission.id));
    // A ledger written before the split keeps its single `treasury` account: still counted.
    await db.transaction((tx) =>
      transfer(tx, {
        asset: "USDC",
        kind: "test_legacy_fee",
        at: new Date(),
        postings: [
          { account: "external", amount: -7n },
          { account: "treasury", amount: 7n },
        ],
      }),
    );
    expect((await treasuryBalances(db)).get("USDC")).toBe(sum + 7n);
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it.runIf(onRealPostgres)(
    "fees of missions on different shards do not wait for each other's lock (real Postgres)",
    async () => {
      const db = t.deps.database.db;
      const [a, b] = idsOnTwoShards();
      const fee = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], mission: string, payer: string) =>
        transfer(tx, {
          asset: "USDC",
          kind: "test_fee",
          ref: mission,
          at: new Date(),
          postings: [
            { account: agentAccount(payer), amount: -1n },
            { account: treasuryAccount(mission), amount: 1n },
          ],
        });
      for (const payer of ["0xa1", "0xb2"])
        await db.transaction((tx) =>
          transfer(tx, {
            asset: "USDC",
            kind: "test_credit",
            at: new Date(),
            postings: [
              { account: "external", amount: -10n },
              { account: agentAccount(payer), amount: 10n },
            ],
          }),
        );
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      // A holds its shard's lock open…
      const first = db.transaction(async (tx) => {
        await fee(tx, a, "0xa1");
        locked();
        await held;
      });
      await isLocked;
      try {
        // …while B, on another shard, must commit without waiting (lock_timeout makes a wait fail).
        await db.transaction(async (tx) => {
          await tx.execute(sql`set local lock_timeout = '2s'`);
          await fee(tx, b, "0xb2");
        });
        // The same shard as A's does wait: the test can tell the two apart.
        const same = db.transaction(async (tx) => {
          await tx.execute(sql`set local lock_timeout = '300ms'`);
          await fee(tx, a, "0xb2");
        });
        const err = await same.then(
          () => undefined,
          (e: unknown) => e as Error & { cause?: Error },
        );
        expect(`${err?.message} ${err?.cause?.message}`).toMatch(/lock timeout/);
      } finally {
        release();
        await first;
      }
      expect((await verifyLedger(db)).ok).toBe(true);
    },
  );
});
