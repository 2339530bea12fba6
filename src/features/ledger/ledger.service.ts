import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../db/client";
import { ledgerAccounts, ledgerEntries } from "../../db/schema/index";
import { AppError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { UINT256_MAX } from "../../lib/money";
import { entryHash, GENESIS_HASH } from "./ledger.hash";

export const EXTERNAL = "external";
export const TREASURY = "treasury";
export const agentAccount = (address: string) => `agent:${address}`;
export const escrowAccount = (missionId: string) => `escrow:${missionId}`;

export interface Posting {
  account: string;
  amount: bigint; // signed: negative debits, positive credits
}

export interface TransferInput {
  asset: string;
  postings: Posting[];
  kind: string;
  ref?: string | null;
  at: Date;
}

/**
 * Moves value between ledger accounts inside the caller's transaction.
 * Locking: each touched account row is locked FOR UPDATE in sorted account order (no deadlock
 * between transfers), the balance is checked under the lock, and one hash-chained entry per
 * account is appended. Postings must sum to zero; only "external" may go negative.
 */
export async function transfer(tx: Tx, input: TransferInput): Promise<{ transferId: string }> {
  const merged = new Map<string, bigint>();
  for (const p of input.postings) merged.set(p.account, (merged.get(p.account) ?? 0n) + p.amount);
  let sum = 0n;
  for (const v of merged.values()) sum += v;
  if (sum !== 0n) throw new Error(`unbalanced transfer (${sum}) for ${input.kind}`);
  const transferId = newId("xfer", input.at.getTime());
  const accounts = [...merged.keys()].filter((a) => merged.get(a) !== 0n).sort();
  for (const account of accounts) {
    const amount = merged.get(account)!;
    await tx
      .insert(ledgerAccounts)
      .values({ account, asset: input.asset, balance: "0", seq: 0, headHash: GENESIS_HASH, updatedAt: input.at })
      .onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.account, account), eq(ledgerAccounts.asset, input.asset)))
      .for("update");
    if (!row) throw new Error(`ledger account ${account} vanished`);
    const balanceAfter = BigInt(row.balance) + amount;
    if (balanceAfter > UINT256_MAX || -balanceAfter > UINT256_MAX) {
      throw new AppError("UNPROCESSABLE", `a ${input.asset} balance would exceed uint256`, { reason: "balance_overflow", account_kind: account.split(":")[0] });
    }
    if (balanceAfter < 0n && account !== EXTERNAL) {
      throw new AppError("INSUFFICIENT_BALANCE", `balance of ${input.asset} is too low for this operation`, {
        asset: input.asset,
        available: row.balance,
        required: (-amount).toString(),
      });
    }
    const entry = {
      id: newId("led", input.at.getTime()),
      transferId,
      account,
      asset: input.asset,
      seq: row.seq + 1,
      amount: amount.toString(),
      balanceAfter: balanceAfter.toString(),
      kind: input.kind,
      ref: input.ref ?? null,
      prevHash: row.headHash,
      createdAt: input.at,
    };
    const hash = entryHash(entry);
    await tx.insert(ledgerEntries).values({ ...entry, hash });
    await tx
      .update(ledgerAccounts)
      .set({ balance: entry.balanceAfter, seq: entry.seq, headHash: hash, updatedAt: input.at })
      .where(and(eq(ledgerAccounts.account, account), eq(ledgerAccounts.asset, input.asset)));
  }
  return { transferId };
}

export async function balancesOf(db: DbOrTx, account: string): Promise<Map<string, bigint>> {
  const rows = await db
    .select({ asset: ledgerAccounts.asset, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.account, account));
  return new Map(rows.map((r) => [r.asset, BigInt(r.balance)]));
}

export interface LedgerProblem {
  account: string;
  asset: string;
  seq?: number;
  entry_id?: string;
  transfer_id?: string;
  problem: string;
}

/**
 * Re-derives the whole ledger: every entry's hash, each account's chain linkage, sequence and
 * running balance, the account heads, and that each transfer sums to zero.
 */
export async function verifyLedger(db: Db, batch = 1000): Promise<{ ok: boolean; entries: number; problems: LedgerProblem[] }> {
  const problems: LedgerProblem[] = [];
  const accounts = await db.select().from(ledgerAccounts).orderBy(ledgerAccounts.account, ledgerAccounts.asset);
  let count = 0;
  for (const acct of accounts) {
    const where = { account: acct.account, asset: acct.asset };
    let prevHash = GENESIS_HASH;
    let balance = 0n;
    let expectSeq = 1;
    for (;;) {
      const rows = await db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.account, acct.account), eq(ledgerEntries.asset, acct.asset), sql`${ledgerEntries.seq} >= ${expectSeq}`))
        .orderBy(ledgerEntries.seq)
        .limit(batch);
      for (const e of rows) {
        count++;
        const at = { ...where, seq: e.seq, entry_id: e.id };
        if (e.seq !== expectSeq) problems.push({ ...at, problem: `sequence gap: expected ${expectSeq}` });
        if (e.prevHash !== prevHash) problems.push({ ...at, problem: "broken chain: prev_hash does not match the previous entry" });
        if (entryHash(e) !== e.hash) problems.push({ ...at, problem: "entry hash does not match its contents" });
        balance += BigInt(e.amount);
        if (balance.toString() !== BigInt(e.balanceAfter).toString()) {
          problems.push({ ...at, problem: "balance_after does not follow from the previous balance and amount" });
          balance = BigInt(e.balanceAfter);
        }
        prevHash = e.hash;
        expectSeq = e.seq + 1;
      }
      if (rows.length < batch) break;
    }
    if (acct.headHash !== prevHash) problems.push({ ...where, problem: "account head hash does not match the last entry" });
    if (acct.seq !== expectSeq - 1) problems.push({ ...where, problem: "account sequence does not match the last entry" });
    if (BigInt(acct.balance) !== balance) problems.push({ ...where, problem: "account balance does not match the sum of its entries" });
  }
  const unbalanced = await db
    .select({ transferId: ledgerEntries.transferId, asset: ledgerEntries.asset })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.transferId, ledgerEntries.asset)
    .having(sql`sum(${ledgerEntries.amount}) <> 0`);
  for (const u of unbalanced) problems.push({ account: "*", asset: u.asset, transfer_id: u.transferId, problem: "transfer does not sum to zero" });
  return { ok: problems.length === 0, entries: count, problems };
}
