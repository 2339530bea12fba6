import { and, asc, eq, gt, like, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { ledgerAccounts, ledgerEntries } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { Ctx } from "../../lib/context";
import { escrowAccount } from "./ledger.service";
import { signReceipt } from "../../lib/receipt-sign";

// AIP-1 §6: "Off-chain with provable balance (treasury custody + signed attestation)". The ledger
// rail's escrow is attested per asset: the total held by every live escrow account (one per
// mission, "escrow:mis_…") and a digest of those accounts' hash-chain heads, signed with the
// receipt key (JCS + ed25519, the §6.1 procedure: anyone verifies it with the manifest alone).
// A mission's own account (balance, seq, head hash, entries) is at GET /missions/{id}/escrow,
// so a holder can check that its head is one of those the digest covers.

const ATTESTATION_TYPE = "oabp.escrow_attestation";
/** Per-instance reuse of one signed snapshot; it says when it was taken (as_of). */
const CACHE_MS = 10_000;
/** A mission's escrow account has a handful of entries (funding, payouts/refund); bounded anyway. */
const MAX_ENTRIES = 50;

/** sha256 over "account:seq:head_hash" lines of the live escrow accounts of one asset, in account order (computed in SQL). */
async function escrowTotals(db: DbOrTx) {
  const rows = await db
    .select({
      asset: ledgerAccounts.asset,
      total: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)::text`,
      accounts: sql<number>`count(*)::int`,
      heads: sql<string>`encode(sha256(convert_to(coalesce(string_agg(${ledgerAccounts.account} || ':' || ${ledgerAccounts.seq} || ':' || ${ledgerAccounts.headHash}, E'\n' order by ${ledgerAccounts.account}), ''), 'UTF8')), 'hex')`,
    })
    .from(ledgerAccounts)
    .where(and(like(ledgerAccounts.account, "escrow:%"), gt(ledgerAccounts.balance, "0")))
    .groupBy(ledgerAccounts.asset);
  return new Map(rows.map((r) => [r.asset, r]));
}

type Attestation = Awaited<ReturnType<typeof build>>;
const caches = new WeakMap<Deps["database"], { at: number; keyId: string; doc: Attestation }>();

/** GET /escrow/attestation: every configured asset, zero totals included. */
export async function escrowAttestation(ctx: Ctx) {
  const { deps, now } = ctx;
  const cached = caches.get(deps.database);
  if (
    cached &&
    cached.keyId === deps.receiptKeys.active.keyId &&
    now.getTime() - cached.at >= 0 &&
    now.getTime() - cached.at < CACHE_MS
  )
    return cached.doc;
  const doc = await build(deps, now);
  caches.set(deps.database, { at: now.getTime(), keyId: deps.receiptKeys.active.keyId, doc });
  return doc;
}

async function build(deps: Deps, now: Date) {
  const totals = await escrowTotals(deps.database.db);
  const EMPTY = `sha256:${"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}`; // sha256("")
  return signReceipt(
    {
      type: ATTESTATION_TYPE as "oabp.escrow_attestation",
      issuer: deps.config.publicUrl,
      issued_at: now.toISOString(),
      rail: "ledger" as const,
      assets: deps.config.assets.map((a) => {
        const t = totals.get(a.symbol);
        return {
          asset: a.symbol,
          decimals: a.decimals,
          escrowed_total: t?.total ?? "0",
          escrow_accounts: t?.accounts ?? 0,
          heads_digest: t ? `sha256:${t.heads}` : EMPTY,
        };
      }),
      heads_digest_rule:
        "sha256 of the lines `<account>:<seq>:<head_hash>` (joined by \\n, ordered by account) of every escrow account of the asset with a positive balance",
    },
    deps.receiptKeys,
  );
}

/** The ledger-rail view of one mission's escrow: its account and hash chain. */
export async function missionLedgerEscrow(db: DbOrTx, { missionId, asset }: { missionId: string; asset: string }) {
  const account = escrowAccount(missionId);
  const [row] = await db
    .select()
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.account, account), eq(ledgerAccounts.asset, asset)));
  const entries = await db
    .select({
      seq: ledgerEntries.seq,
      kind: ledgerEntries.kind,
      amount: ledgerEntries.amount,
      balance_after: ledgerEntries.balanceAfter,
      prev_hash: ledgerEntries.prevHash,
      hash: ledgerEntries.hash,
      at: ledgerEntries.createdAt,
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.account, account), eq(ledgerEntries.asset, asset)))
    .orderBy(asc(ledgerEntries.seq))
    .limit(MAX_ENTRIES);
  return {
    account,
    asset,
    balance: row?.balance ?? "0",
    seq: row?.seq ?? 0,
    head_hash: row?.headHash ?? null,
    entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })),
    attestation: "/escrow/attestation",
  };
}
