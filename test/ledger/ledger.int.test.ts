import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerAccounts, ledgerEntries } from "../../src/db/schema/index";
import { transfer, verifyLedger, type TransferInput } from "../../src/features/ledger/ledger.service";
import { entryHash } from "../../src/features/ledger/ledger.hash";
import { AppError } from "../../src/lib/errors";
import { rowsOf } from "../../src/db/rows";
import type { Tx } from "../../src/db/client";
import { ADMIN_TOKEN, makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  // Some history: credits, a funded mission, a void with refund.
  const { creator, mission } = await openMission(t);
  await openMission(t);
  await t.call("POST", `/missions/${mission.id}/void`, { token: creator.token });
});
afterAll(async () => t?.close());

type Entry = typeof ledgerEntries.$inferSelect;

async function entries(): Promise<Entry[]> {
  return t.deps.database.db.select().from(ledgerEntries).orderBy(ledgerEntries.account, ledgerEntries.seq);
}

/** Applies a raw change, checks the verifier reports it, then restores the row exactly. */
async function expectDetected(entry: Entry, change: Partial<Record<keyof Entry, unknown>>) {
  const db = t.deps.database.db;
  await db
    .update(ledgerEntries)
    .set(change as never)
    .where(eq(ledgerEntries.id, entry.id));
  const report = await verifyLedger(db);
  const { id: _id, ...original } = entry;
  await db.update(ledgerEntries).set(original).where(eq(ledgerEntries.id, entry.id));
  expect(report.ok).toBe(false);
  expect(report.problems.length).toBeGreaterThan(0);
}

/** An agent's ledger account row and the condition that names it. */
async function agentAccount() {
  const [row] = await t.deps.database.db
    .select()
    .from(ledgerAccounts)
    .where(sql`${ledgerAccounts.account} like 'agent:%'`)
    .limit(1);
  const acct = row!;
  return { acct, where: and(eq(ledgerAccounts.account, acct.account), eq(ledgerAccounts.asset, acct.asset)) };
}

describe("hash-chained ledger", () => {
  it("verifies clean, every transfer sums to zero, and the operator can run it over HTTP", async () => {
    const report = await verifyLedger(t.deps.database.db);
    expect(report).toMatchObject({ ok: true, problems: [] });
    expect(report.entries).toBeGreaterThanOrEqual(10);
    const http = await t.call("GET", "/admin/ledger/verify", { token: ADMIN_TOKEN });
    expect(http.status).toBe(200);
    expect(http.body.ok).toBe(true);
    const agent = await signIn(t);
    expect((await t.call("GET", "/admin/ledger/verify", { token: agent.token })).status).toBe(403);
  });

  it("detects an alteration of any field of any stored entry", async () => {
    const all = await entries();
    for (const e of all) {
      await expectDetected(e, { amount: (BigInt(e.amount) + 1n).toString() });
      await expectDetected(e, { balanceAfter: (BigInt(e.balanceAfter) + 7n).toString() });
      await expectDetected(e, { kind: "forged" });
      await expectDetected(e, { ref: "mis_forged" });
      await expectDetected(e, { createdAt: new Date(e.createdAt.getTime() + 1000) });
      await expectDetected(e, { prevHash: "f".repeat(64) });
      await expectDetected(e, { hash: "0".repeat(64) });
    }
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("detects a rewritten entry whose own hash was recomputed (the next link or the head breaks)", async () => {
    const db = t.deps.database.db;
    const [e] = await db.select().from(ledgerEntries).where(eq(ledgerEntries.seq, 1)).limit(1);
    const { entryHash } = await import("../../src/features/ledger/ledger.hash");
    const forged = {
      ...e!,
      amount: (BigInt(e!.amount) * 2n).toString(),
      balanceAfter: (BigInt(e!.balanceAfter) * 2n).toString(),
    };
    await expectDetected(e!, { amount: forged.amount, balanceAfter: forged.balanceAfter, hash: entryHash(forged) });
  });

  it("detects a chain whose account row was deleted (entries rewritten, head removed)", async () => {
    const db = t.deps.database.db;
    const { acct, where } = await agentAccount();
    await db.delete(ledgerAccounts).where(where);
    const report = await verifyLedger(db);
    await db.insert(ledgerAccounts).values(acct);
    expect(report.ok).toBe(false);
    expect(report.problems.some((p) => p.problem.includes("account row is missing"))).toBe(true);
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it("detects a deleted entry and a tampered account balance", async () => {
    const db = t.deps.database.db;
    const [victim] = await entries();
    await db.delete(ledgerEntries).where(eq(ledgerEntries.id, victim!.id));
    const report = await verifyLedger(db);
    await db.insert(ledgerEntries).values(victim!);
    expect(report.ok).toBe(false);

    const { acct, where } = await agentAccount();
    await db
      .update(ledgerAccounts)
      .set({ balance: (BigInt(acct.balance) + 1_000_000n).toString() })
      .where(where);
    const report2 = await verifyLedger(db);
    await db.update(ledgerAccounts).set({ balance: acct.balance }).where(where);
    expect(report2.ok).toBe(false);
    expect(report2.problems.some((p) => p.problem.includes("balance"))).toBe(true);
    expect((await verifyLedger(db)).ok).toBe(true);
  });
});

describe("the transfer write function", () => {
  const EXTERNAL = "external";
  const run = (input: Omit<TransferInput, "asset" | "at">, at = new Date()) =>
    t.deps.database.db.transaction((tx) => transfer(tx, { asset: "USDC", at, ...input }));

  it("writes the hash entryHash computes, whatever the reference holds, and the ledger verifies", async () => {
    const account = `agent:0x${"ab".repeat(20)}`;
    const ref = `quote " backslash \\ tab \t newline \n bell \u0007 é 漢 😀 \u2028`;
    const { transferId } = await run({
      kind: "admin_credit",
      ref,
      postings: [
        { account: EXTERNAL, amount: -123456789012345678901234567890n },
        { account, amount: 123456789012345678901234567890n },
      ],
    });
    const rows = await t.deps.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.transferId, transferId));
    expect(rows.map((r) => [r.account, r.amount, r.ref]).sort()).toEqual([
      [account, "123456789012345678901234567890", ref],
      [EXTERNAL, "-123456789012345678901234567890", ref],
    ]);
    for (const r of rows) expect(r.hash).toBe(entryHash(r));
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });

  it("refuses an overdraft and a balance past uint256 with the API's errors, and writes nothing", async () => {
    const account = `agent:0x${"cd".repeat(20)}`;
    await run({
      kind: "admin_credit",
      postings: [
        { account: EXTERNAL, amount: -5n },
        { account, amount: 5n },
      ],
    });
    const before = await entries();
    const overdraft = await run({
      kind: "withdrawal",
      postings: [
        { account, amount: -6n },
        { account: EXTERNAL, amount: 6n },
      ],
    }).catch((e: unknown) => e);
    expect(overdraft).toBeInstanceOf(AppError);
    expect(overdraft).toMatchObject({
      code: "INSUFFICIENT_BALANCE",
      message: "balance of USDC is too low for this operation",
      details: { asset: "USDC", available: "5", required: "6" },
    });
    const max = 2n ** 256n - 1n;
    const overflow = await run({
      kind: "admin_credit",
      postings: [
        { account: EXTERNAL, amount: -max },
        { account, amount: max },
      ],
    }).catch((e: unknown) => e);
    expect(overflow).toMatchObject({
      code: "UNPROCESSABLE",
      details: { reason: "balance_overflow", account_kind: "agent" },
    });
    expect(await entries()).toEqual(before);
  });

  /** Account rows read by sequential scans so far (the session's counts not yet reported included). */
  const seqRead = async (tx: Tx) => {
    const [row] = rowsOf<{ n: number }>(
      await tx.execute(
        sql`select seq_tup_read::int as n from pg_stat_xact_user_tables where relname = 'ledger_accounts'`,
      ),
    );
    return row!.n;
  };

  it("reads only its own accounts' rows, however many accounts the ledger holds", async () => {
    // The planner guesses 100 postings: a join of them with the accounts chose a scan of every
    // account row (two per mission) until the table was large (drizzle/0043).
    const account = `agent:0x${"ef".repeat(20)}`;
    const rolledBack = new Error("rolled back");
    let scanned: number | undefined;
    await t.deps.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into ledger_accounts (account, asset, balance, seq, head_hash, updated_at)
          select 'escrow:filler-' || i, 'USDC', 0, 0, repeat('0', 64), now() from generate_series(1, 5000) i`);
        await tx.execute(sql`analyze ledger_accounts`);
        const before = await seqRead(tx);
        for (let i = 0; i < 8; i++)
          // past plpgsql's five custom plans, to its generic one
          await transfer(tx, {
            asset: "USDC",
            at: new Date(),
            kind: "admin_credit",
            postings: [
              { account: EXTERNAL, amount: -1n },
              { account, amount: 1n },
            ],
          });
        scanned = (await seqRead(tx)) - before;
        throw rolledBack; // the filler accounts go with it
      })
      .catch((e: unknown) => {
        if (e !== rolledBack) throw e;
      });
    expect(scanned).toBe(0);
  });
});
