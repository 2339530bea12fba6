import { and, desc, eq, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import { publicMissions } from "../../db/mission-visibility";
import { chainPayouts, ledgerEntries, missions, submissions } from "../../db/schema/index";
import type { DbOrTx } from "../../db/client";
import { dbOf, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { isId } from "../../lib/ids";
import { baseReconciliation } from "../escrow";
import { agentAccount, escrowAttestation } from "../ledger";
import { withdrawalTotals } from "../withdrawals";

// Public proof of escrow. One document per
// instance every few seconds (each part caches its own reading): the ledger rail's signed
// attestation (per asset: escrowed total, hash-chain heads digest; JCS + ed25519 with the receipt
// key, so it verifies offline against the manifest's receipt_signing_keys), the base rail's
// reconciliation against the contract's balance, withdrawals to wallets per asset and state
// (docs/withdrawals.md), and where to page through the payouts.

export async function transparency(ctx: Ctx) {
  const [attestation, base, withdrawals] = await Promise.all([
    escrowAttestation(ctx),
    baseReconciliation(ctx),
    withdrawalTotals(ctx),
  ]);
  return {
    issuer: ctx.deps.config.publicUrl,
    as_of: ctx.now.toISOString(),
    ledger: {
      assets: attestation.assets.map((a) => ({
        asset: a.asset,
        decimals: a.decimals,
        escrowed_total: a.escrowed_total,
        escrow_accounts: a.escrow_accounts,
        heads_digest: a.heads_digest,
      })),
      attestation,
      verify:
        "canonicalize the attestation without `digest` and `signature` (RFC 8785); sha256 of those bytes is `digest`; " +
        "check `signature.value` (ed25519) with the key `signature.key_id` of /.well-known/oabp.json receipt_signing_keys — " +
        "the same procedure as a §6.1 receipt (`oabp receipt verify`, POST /receipts/verify). A mission's own chain: GET /missions/{id}/escrow.",
    },
    base,
    withdrawals,
    payouts: "/transparency/payouts",
  };
}

const encodeCursor = (at: Date, id: string) =>
  Buffer.from(JSON.stringify([at.toISOString(), id])).toString("base64url");
function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown];
    if (typeof at === "string" && typeof id === "string" && isId("sub", id)) {
      const d = new Date(at);
      if (!Number.isNaN(d.getTime())) return { at: d, id };
    }
  } catch {
    /* fall through */
  }
  throw new AppError("INVALID_PARAMETER", "cursor is not valid", { field: "cursor" });
}

/**
 * GET /transparency/payouts: every paid winner of a public mission, newest first, keyset on
 * (decided_at, id) over the partial index submissions_paid_idx. A ledger payout is `credited` with
 * the hash of the winner's credit entry (checkable against the mission's chain); a base payout
 * carries its release's state and transaction.
 */
export async function listPaidPayouts(
  ctx: Ctx,
  q: { limit: number; cursor?: string | undefined; asset?: string | undefined; rail?: "ledger" | "base" | undefined },
) {
  const db = dbOf(ctx);
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  const rows = await paidRows(db, q, after);
  const page = rows.slice(0, q.limit);
  // One query per rail for the page: the winners' credit entries, the missions' releases.
  const entryOf = await creditHashes(db, page);
  const releaseOf = await releasesOf(db, page);
  const last = page[page.length - 1];
  return {
    payouts: page.map((r) => {
      const rel = releaseOf.get(r.missionId);
      return {
        submission_id: r.id,
        mission_id: r.missionId,
        agent_id: r.agent,
        asset: r.asset,
        amount: r.amount!,
        rail: r.rail === "base" ? ("base" as const) : ("ledger" as const),
        paid_at: r.decidedAt!.toISOString(),
        settlement:
          r.rail === "base"
            ? {
                status: rel?.state ?? "queued",
                chain_id: rel?.chainId ?? null,
                tx_hash: rel?.txHash ?? null,
                ledger_entry_hash: null,
              }
            : {
                status: "credited",
                chain_id: null,
                tx_hash: null,
                ledger_entry_hash: entryOf.get(`${agentAccount(r.agent)}|${r.missionId}`) ?? null,
              },
        receipt: `/missions/${r.missionId}/receipts/${r.id}`,
      };
    }),
    next_cursor: rows.length > q.limit && last ? encodeCursor(last.decidedAt!, last.id) : null,
  };
}

type PayoutsQuery = Parameters<typeof listPaidPayouts>[1];

/** The page's paid winners (one more than the limit, to know whether a next page exists). */
function paidRows(db: DbOrTx, q: PayoutsQuery, after: { at: Date; id: string } | undefined) {
  return db
    .select({
      id: submissions.id,
      missionId: submissions.missionId,
      agent: submissions.submitter,
      amount: submissions.payoutAmount,
      decidedAt: submissions.decidedAt,
      asset: missions.rewardAsset,
      rail: missions.rewardChain,
    })
    .from(submissions)
    .innerJoin(missions, eq(missions.id, submissions.missionId))
    .where(
      and(
        eq(submissions.status, "accepted"),
        isNotNull(submissions.payoutAmount),
        isNotNull(submissions.decidedAt),
        publicMissions,
        q.asset ? eq(missions.rewardAsset, q.asset) : undefined,
        q.rail ? eq(missions.rewardChain, q.rail) : undefined,
        after
          ? or(
              lt(submissions.decidedAt, after.at),
              and(eq(submissions.decidedAt, after.at), lt(submissions.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(submissions.decidedAt), desc(submissions.id))
    .limit(q.limit + 1);
}

type PaidRow = Awaited<ReturnType<typeof paidRows>>[number];

/** Ledger payouts: the hash of each winner's credit entry, keyed `account|mission`. */
async function creditHashes(db: DbOrTx, page: PaidRow[]): Promise<Map<string, string>> {
  const ledgerRows = page.filter((r) => r.rail !== "base");
  const entries = ledgerRows.length
    ? await db
        .select({ account: ledgerEntries.account, ref: ledgerEntries.ref, hash: ledgerEntries.hash })
        .from(ledgerEntries)
        .where(
          and(
            inArray(ledgerEntries.account, [...new Set(ledgerRows.map((r) => agentAccount(r.agent)))]),
            inArray(ledgerEntries.ref, [...new Set(ledgerRows.map((r) => r.missionId))]),
            eq(ledgerEntries.kind, "mission_payout"),
            sql`${ledgerEntries.amount} > 0`,
          ),
        )
    : [];
  return new Map(entries.map((e) => [`${e.account}|${e.ref}`, e.hash]));
}

/** Base payouts: each mission's release (state, chain, transaction), keyed by mission. */
async function releasesOf(db: DbOrTx, page: PaidRow[]) {
  const baseMissions = [...new Set(page.filter((r) => r.rail === "base").map((r) => r.missionId))];
  const releases = baseMissions.length
    ? await db
        .select({
          missionId: chainPayouts.missionId,
          state: chainPayouts.state,
          chainId: chainPayouts.chainId,
          txHash: sql<string | null>`coalesce(${chainPayouts.minedTxHash}, ${chainPayouts.txHash})`,
        })
        .from(chainPayouts)
        .where(and(inArray(chainPayouts.missionId, baseMissions), eq(chainPayouts.kind, "release")))
    : [];
  return new Map(releases.map((r) => [r.missionId, r]));
}
