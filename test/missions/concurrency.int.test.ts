import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/features/ledger/ledger.service";
import { credit, missionBody, newAccount, openMission, signIn, siweMessageFor } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { useTestApp } from "../helpers/suite-app";

// Locking is only meaningful with real concurrent connections: PGlite is a single connection,
// so these run on the Postgres server named by DATABASE_URL (CI runs the suite on both).
describe.runIf(onRealPostgres)("concurrency on real Postgres", () => {
  const t = useTestApp({}, { poolMax: 20 });

  const REWARD = 100_000_000n;
  const FEE = 5_000_000n;

  it("50 concurrent creations against a balance covering 10 → exactly 10 missions, balance never negative", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 10n * (REWARD + FEE));
    const body = missionBody(t, { reward: { asset: "USDC", amount: REWARD.toString() } });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => t.call("POST", "/missions", { token: creator.token, body })),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r.body.error).toBe("INSUFFICIENT_BALANCE");
    expect(new Set(created.map((r) => r.body.id)).size).toBe(10);
    const list = await t.call("GET", `/missions?creator=${creator.address}&limit=100`);
    expect(list.body.missions).toHaveLength(10);
    expect((await t.call("GET", `/agents/${creator.address}/balance`)).body.aigen_balance).toBe(0);
    // Never negative at any point: every running balance in the account's chain is >= 0.
    const neg = await t.deps.database.db.execute(
      sql`select count(*)::int as n from ledger_entries where account = ${`agent:${creator.address}`} and balance_after < 0`,
    );
    expect((neg as unknown as { n: number }[])[0]!.n).toBe(0);
    expect((await verifyLedger(t.deps.database.db)).problems).toEqual([]);
  });

  it("20 concurrent POST /missions with one Idempotency-Key → one mission, identical responses", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 10n * (REWARD + FEE));
    const body = missionBody(t);
    const headers = { "idempotency-key": `k-${Date.now()}` };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.call("POST", "/missions", { token: creator.token, body, headers })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    const list = await t.call("GET", `/missions?creator=${creator.address}`);
    expect(list.body.missions).toHaveLength(1);
    expect((await t.call("GET", `/agents/${creator.address}/balance`)).body.aigen_balance).toBe(
      Number(9n * (REWARD + FEE)),
    );
  });

  it("ledger verification reads one snapshot: no false alarms while credits are in flight", async () => {
    const agents = await Promise.all(Array.from({ length: 5 }, () => signIn(t)));
    const credits = Promise.all(
      Array.from({ length: 40 }, (_, i) => credit(t, agents[i % 5]!.address, 1_000n + BigInt(i))),
    );
    const reports = await Promise.all(Array.from({ length: 5 }, () => verifyLedger(t.deps.database.db)));
    await credits;
    for (const r of reports) expect(r.problems).toEqual([]);
  });

  it("a SIWE nonce signs in exactly once under 10 concurrent attempts", async () => {
    const account = newAccount();
    const message = await siweMessageFor(t, account);
    const signature = await account.signMessage({ message });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.call("POST", "/auth/siwe", { body: { message, signature } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(9);
  });

  it("void racing submissions: either the void wins (no submission stored) or it is refused", async () => {
    for (let round = 0; round < 5; round++) {
      const { creator, mission } = await openMission(t);
      const solvers = await Promise.all([signIn(t), signIn(t), signIn(t)]);
      const [voided, ...subs] = await Promise.all([
        t.call("POST", `/missions/${mission.id}/void`, { token: creator.token }),
        ...solvers.map((s) =>
          t.call("POST", `/missions/${mission.id}/submissions`, {
            token: s.token,
            body: { content: `answer ${s.address}` },
          }),
        ),
      ]);
      const accepted = subs.filter((s) => s.status === 201).length;
      const after = await t.call("GET", `/missions/${mission.id}`);
      if (voided!.status === 200) {
        expect(accepted).toBe(0);
        expect(after.body).toMatchObject({ status: "voided", submission_count: 0 });
      } else {
        expect(voided!.status).toBe(409);
        expect(accepted).toBeGreaterThan(0);
        expect(after.body).toMatchObject({ status: "open", submission_count: accepted });
      }
    }
    expect((await verifyLedger(t.deps.database.db)).problems).toEqual([]);
  });
});
