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
      throw new AppError("UNPROCESSABLE", `a ${input.asset} balance would exceed uint256`, {
        reason: "balance_overflow",
        account_kind: account.split(":")[0],
      });
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

export interface AccountKey {
  account: string;
  asset: string;
}

/**
 * Locks ledger rows FOR UPDATE in one sorted pass. A transaction that makes several transfers
 * (a payout, then stake settlements) locks the union first: each transfer alone is sorted, but
 * two in a row are not, and another transaction could hold the second's rows while waiting for
 * the first's.
 */
export async function lockAccounts(tx: Tx, keys: AccountKey[], at: Date): Promise<void> {
  const unique = [...new Map(keys.map((k) => [`${k.account}\u0000${k.asset}`, k])).values()].sort((a, b) =>
    a.account < b.account ? -1 : a.account > b.account ? 1 : a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0,
  );
  for (const k of unique) {
    await tx
      .insert(ledgerAccounts)
      .values({ ...k, balance: "0", seq: 0, headHash: GENESIS_HASH, updatedAt: at })
      .onConflictDoNothing();
    await tx
      .select({ a: ledgerAccounts.account })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.account, k.account), eq(ledgerAccounts.asset, k.asset)))
      .for("update");
  }
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
 * Re-derives the whole ledger from one consistent snapshot (REPEATABLE READ, read only — safe to
 * run while money moves): every entry's hash, each chain's linkage, sequence and running balance,
 * each account row's head against its chain (including chains whose account row is missing, and
 * rows with no chain), and that each transfer sums to zero. One ordered keyset scan, batched.
 */
export async function verifyLedger(
  db: Db,
  batch = 1000,
): Promise<{ ok: boolean; entries: number; problems: LedgerProblem[] }> {
  return db.transaction(
    async (tx) => {
      const problems: LedgerProblem[] = [];
      const heads = new Map((await tx.select().from(ledgerAccounts)).map((a) => [`${a.account}\u0000${a.asset}`, a]));
      let count = 0;
      let cur: { account: string; asset: string; prevHash: string; balance: bigint; nextSeq: number } | undefined;
      const closeChain = () => {
        if (!cur) return;
        const where = { account: cur.account, asset: cur.asset };
        const key = `${cur.account}\u0000${cur.asset}`;
        const head = heads.get(key);
        heads.delete(key);
        if (!head) return void problems.push({ ...where, problem: "entries exist but the account row is missing" });
        if (head.headHash !== cur.prevHash)
          problems.push({ ...where, problem: "account head hash does not match the last entry" });
        if (head.seq !== cur.nextSeq - 1)
          problems.push({ ...where, problem: "account sequence does not match the last entry" });
        if (BigInt(head.balance) !== cur.balance)
          problems.push({ ...where, problem: "account balance does not match the sum of its entries" });
      };
      let after: { account: string; asset: string; seq: number } | undefined;
      for (;;) {
        const rows = await tx
          .select()
          .from(ledgerEntries)
          .where(
            after
              ? sql`(${ledgerEntries.account}, ${ledgerEntries.asset}, ${ledgerEntries.seq}) > (${after.account}, ${after.asset}, ${after.seq})`
              : undefined,
          )
          .orderBy(ledgerEntries.account, ledgerEntries.asset, ledgerEntries.seq)
          .limit(batch);
        for (const e of rows) {
          count++;
          if (!cur || cur.account !== e.account || cur.asset !== e.asset) {
            closeChain();
            cur = { account: e.account, asset: e.asset, prevHash: GENESIS_HASH, balance: 0n, nextSeq: 1 };
          }
          const at = { account: e.account, asset: e.asset, seq: e.seq, entry_id: e.id };
          if (e.seq !== cur.nextSeq) problems.push({ ...at, problem: `sequence gap: expected ${cur.nextSeq}` });
          if (e.prevHash !== cur.prevHash)
            problems.push({ ...at, problem: "broken chain: prev_hash does not match the previous entry" });
          if (entryHash(e) !== e.hash) problems.push({ ...at, problem: "entry hash does not match its contents" });
          cur.balance += BigInt(e.amount);
          if (cur.balance !== BigInt(e.balanceAfter)) {
            problems.push({ ...at, problem: "balance_after does not follow from the previous balance and amount" });
            cur.balance = BigInt(e.balanceAfter);
          }
          cur.prevHash = e.hash;
          cur.nextSeq = e.seq + 1;
        }
        if (rows.length < batch) break;
        const last = rows[rows.length - 1]!;
        after = { account: last.account, asset: last.asset, seq: last.seq };
      }
      closeChain();
      for (const head of heads.values()) {
        if (head.seq !== 0 || BigInt(head.balance) !== 0n)
          problems.push({
            account: head.account,
            asset: head.asset,
            problem: "account row has a balance or sequence but no entries",
          });
      }
      const unbalanced = await tx
        .select({ transferId: ledgerEntries.transferId, asset: ledgerEntries.asset })
        .from(ledgerEntries)
        .groupBy(ledgerEntries.transferId, ledgerEntries.asset)
        .having(sql`sum(${ledgerEntries.amount}) <> 0`);
      for (const u of unbalanced)
        problems.push({
          account: "*",
          asset: u.asset,
          transfer_id: u.transferId,
          problem: "transfer does not sum to zero",
        });
      return { ok: problems.length === 0, entries: count, problems };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}
