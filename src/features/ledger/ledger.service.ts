import { eq, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../db/client";
import { ledgerAccounts, ledgerEntries } from "../../db/schema/index";
import type { TxCtx } from "../../lib/context";
import { newId } from "../../lib/ids";
import { entryHash, GENESIS_HASH } from "./ledger.hash";
import { pipelined } from "../../db/pipelined";
import { fromRaised } from "../../db/write-functions";

export const EXTERNAL = "external";
export const agentAccount = (address: string) => `agent:${address}`;
export const escrowAccount = (missionId: string) => `escrow:${missionId}`;

/**
 * The treasury is split into TREASURY_SHARDS accounts, `treasury:0` … `treasury:15`: every mission creation (spam fee) and ledger award (fee)
 * credits the treasury, and one account row locked FOR UPDATE by all of them serialised every
 * write of the marketplace behind it. A mission's fees always go to the same shard (a hash of its
 * id), so two transactions collide only when their missions share a shard. Each shard is an
 * ordinary hash-chained account that `verifyLedger` checks like any other; the treasury's balance
 * is the sum of its shards (plus `treasury`, the single account of ledgers written before the
 * split, which keeps its chain). Changing the count later only moves where new fees land.
 */
export const TREASURY_SHARDS = 16;
const LEGACY_TREASURY = "treasury";
export function treasuryAccount(ref: string): string {
  let h = 0x811c9dc5; // FNV-1a: cheap, stable across processes and versions
  for (let i = 0; i < ref.length; i++) h = Math.imul(h ^ ref.charCodeAt(i), 0x01000193);
  return `treasury:${(h >>> 0) % TREASURY_SHARDS}`;
}

/** The treasury's balance per asset: the sum over its shards (and the pre-split account). */
export async function treasuryBalances(db: DbOrTx): Promise<Map<string, bigint>> {
  const rows = await db
    .select({ asset: ledgerAccounts.asset, balance: sql<string>`sum(${ledgerAccounts.balance})::text` })
    .from(ledgerAccounts)
    .where(sql`${ledgerAccounts.account} = ${LEGACY_TREASURY} or ${ledgerAccounts.account} like 'treasury:%'`)
    .groupBy(ledgerAccounts.asset);
  return new Map(rows.map((r) => [r.asset, BigInt(r.balance)]));
}

interface Posting {
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
 * Moves value between ledger accounts inside the caller's transaction, in one statement: the
 * write function `oabp_transfer` (drizzle/0042_writes_sql_functions.sql) creates any missing
 * account row, locks the touched rows FOR UPDATE in sorted account order (no deadlock between
 * transfers), checks the balances under the lock and appends one hash-chained entry per account
 * (`entryHash`, which `verifyLedger` recomputes). Postings must sum to zero; only "external" may
 * go negative (INSUFFICIENT_BALANCE otherwise; UNPROCESSABLE `balance_overflow` past uint256).
 */
export async function transfer(tx: Tx, input: TransferInput): Promise<{ transferId: string }> {
  const { transferId, arg } = transferArg(input);
  if (arg)
    await tx.execute(sql`select oabp_transfer(${JSON.stringify(arg)}::jsonb)`).catch((e: unknown) => {
      throw fromRaised(e);
    });
  return { transferId };
}

/** `oabp_transfer`'s argument (null: nothing moves), for a write function that makes the transfer itself. */
export function transferArg(input: TransferInput): { transferId: string; arg: Record<string, unknown> | null } {
  const merged = new Map<string, bigint>();
  for (const p of input.postings) merged.set(p.account, (merged.get(p.account) ?? 0n) + p.amount);
  let sum = 0n;
  for (const v of merged.values()) sum += v;
  if (sum !== 0n) throw new Error(`unbalanced transfer (${sum}) for ${input.kind}`);
  const transferId = newId("xfer", input.at.getTime());
  const touched = [...merged.keys()].filter((a) => merged.get(a) !== 0n).sort(byteOrder);
  if (touched.length === 0) return { transferId, arg: null };
  const postings = touched.map((account) => ({
    account,
    amount: merged.get(account)!.toString(),
    id: newId("led", input.at.getTime()),
  }));
  const at = input.at.toISOString();
  return {
    transferId,
    arg: { asset: input.asset, kind: input.kind, ref: input.ref ?? null, at, transfer_id: transferId, postings },
  };
}

/** Byte order of ASCII account names, as `COLLATE "C"` sorts them in the write function. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface AccountKey {
  account: string;
  asset: string;
}

/**
 * Creates any missing rows, then locks all of them FOR UPDATE in one statement, in (account,
 * asset) byte order: the ORDER BY sorts before the rows are locked, so every transaction takes
 * its locks in the same order (the `COLLATE "C"` keeps that order independent of the database's
 * collation). Returns the locked rows in that order.
 */
async function lockRows(tx: Tx, keys: AccountKey[], at: Date) {
  // Sorted, so that two transactions creating the same new rows insert them in the same order
  // (an insert waits for a concurrent uncommitted insert of the same key).
  const unique = [...new Map(keys.map((k) => [`${k.account}\u0000${k.asset}`, k])).values()].sort((a, b) =>
    a.account < b.account ? -1 : a.account > b.account ? 1 : a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0,
  );
  const wanted = sql.join(
    unique.map((k) => sql`(${k.account}, ${k.asset})`),
    sql`, `,
  );
  // One round trip: the insert runs first, so the locking read sees the rows it created.
  const [, rows] = await pipelined(
    () =>
      tx
        .insert(ledgerAccounts)
        .values(unique.map((k) => ({ ...k, balance: "0", seq: 0, headHash: GENESIS_HASH, updatedAt: at })))
        .onConflictDoNothing(),
    () =>
      tx
        .select()
        .from(ledgerAccounts)
        .where(sql`(${ledgerAccounts.account}, ${ledgerAccounts.asset}) in (${wanted})`)
        .orderBy(sql`${ledgerAccounts.account} collate "C"`, sql`${ledgerAccounts.asset} collate "C"`)
        .for("update"),
  );
  if (rows.length !== unique.length) throw new Error("ledger account rows vanished under lock");
  return rows;
}

/**
 * Locks ledger rows FOR UPDATE in one sorted pass. A transaction that makes several transfers
 * (a payout, then stake settlements) locks the union first: each transfer alone is sorted, but
 * two in a row are not, and another transaction could hold the second's rows while waiting for
 * the first's.
 */
export async function lockAccounts(ctx: Pick<TxCtx, "tx" | "now">, keys: AccountKey[]): Promise<void> {
  if (keys.length > 0) await lockRows(ctx.tx, keys, ctx.now);
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
      const heads = new Map((await tx.select().from(ledgerAccounts)).map((a) => [chainKey(a), a]));
      let count = 0;
      let cur: Chain | undefined;
      await scanEntries(tx, batch, (e) => {
        count++;
        if (!cur || cur.account !== e.account || cur.asset !== e.asset) {
          if (cur) closeChain(cur, heads, problems);
          cur = { account: e.account, asset: e.asset, prevHash: GENESIS_HASH, balance: 0n, nextSeq: 1 };
        }
        followChain(cur, e, problems);
      });
      if (cur) closeChain(cur, heads, problems);
      for (const head of heads.values()) {
        if (head.seq !== 0 || BigInt(head.balance) !== 0n)
          problems.push({
            account: head.account,
            asset: head.asset,
            problem: "account row has a balance or sequence but no entries",
          });
      }
      problems.push(...(await unbalancedTransfers(tx)));
      return { ok: problems.length === 0, entries: count, problems };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** One account chain as the scan has followed it so far. */
interface Chain {
  account: string;
  asset: string;
  prevHash: string;
  balance: bigint;
  nextSeq: number;
}
type AccountRow = typeof ledgerAccounts.$inferSelect;
type EntryRow = typeof ledgerEntries.$inferSelect;

const chainKey = (a: { account: string; asset: string }) => `${a.account}\u0000${a.asset}`;

/** Every entry in (account, asset, seq) order: one keyset scan in batches. */
async function scanEntries(tx: Tx, batch: number, onEntry: (e: EntryRow) => void): Promise<void> {
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
    rows.forEach(onEntry);
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    after = { account: last.account, asset: last.asset, seq: last.seq };
  }
}

/** The next entry of `cur`'s chain: its sequence, link, own hash and running balance. */
function followChain(cur: Chain, e: EntryRow, problems: LedgerProblem[]): void {
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

/** The end of a chain against its account row (taken out of `heads`: what remains has no entries). */
function closeChain(cur: Chain, heads: Map<string, AccountRow>, problems: LedgerProblem[]): void {
  const where = { account: cur.account, asset: cur.asset };
  const head = heads.get(chainKey(cur));
  heads.delete(chainKey(cur));
  if (!head) return void problems.push({ ...where, problem: "entries exist but the account row is missing" });
  if (head.headHash !== cur.prevHash)
    problems.push({ ...where, problem: "account head hash does not match the last entry" });
  if (head.seq !== cur.nextSeq - 1)
    problems.push({ ...where, problem: "account sequence does not match the last entry" });
  if (BigInt(head.balance) !== cur.balance)
    problems.push({ ...where, problem: "account balance does not match the sum of its entries" });
}

/** Transfers whose postings do not sum to zero, per asset. */
async function unbalancedTransfers(tx: Tx): Promise<LedgerProblem[]> {
  const unbalanced = await tx
    .select({ transferId: ledgerEntries.transferId, asset: ledgerEntries.asset })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.transferId, ledgerEntries.asset)
    .having(sql`sum(${ledgerEntries.amount}) <> 0`);
  return unbalanced.map((u) => ({
    account: "*",
    asset: u.asset,
    transfer_id: u.transferId,
    problem: "transfer does not sum to zero",
  }));
}
