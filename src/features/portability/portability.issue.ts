import { and, countDistinct, eq, gt, isNotNull, lt, ne, sql, count } from "drizzle-orm";
import { getAddress } from "viem";
import { agents, disputes, missions, ratingHistory, submissions } from "../../db/schema/index";
import type { DbOrTx } from "../../db/client";
import type { Deps } from "../../deps";
import { dbOf, type Ctx } from "../../lib/context";
import { normalizeAddress } from "../../lib/address";
import { AppError } from "../../lib/errors";
import { effectiveRating, typeAffinity } from "../reputation";
import { ATTESTATION_SPEC, BREAKDOWN_WEIGHTS, signAttestation } from "./portability.format";

/** AIP-3 §2: lifetime of the attestations this server issues, days (≤ 90); published as `cross_chain.attestation_ttl_days`. */
export const ATTESTATION_TTL_DAYS = 30;

// AIP-3 §2.2 GET /reputation/{address}/attestation: this server's signed statement of an agent's
// local reputation. Every count comes from stored rows at request time; self-submissions
// (§3.1) are never paid or rated (submissions.service stores them rejected), so they count nowhere.

/** The issuer block every attestation (and the manifest) names. */
function issuerOf(deps: Deps) {
  const rail = deps.config.baseRail;
  return {
    oabp_server: `${deps.config.publicUrl}/`,
    chain_family: "evm",
    // The ledger rail is off-chain custody; with the base rail on, the chain is Base.
    chain_id: rail ? String(rail.chainId) : "off-chain",
    server_address: deps.attestation.address,
  };
}

/** USD value of base-unit amounts per asset (the asset table's price), rounded to cents. */
function usdOf(deps: Deps, rows: { asset: string; total: string | null }[]): number {
  let cents = 0;
  for (const r of rows) {
    const a = deps.config.assets.find((x) => x.symbol === r.asset);
    if (!a || !r.total) continue;
    const priceMicro = BigInt(Math.round(a.usd_price * 1_000_000));
    cents += Number((BigInt(r.total) * priceMicro) / (10n ** BigInt(a.decimals) * 10_000n));
  }
  return cents / 100;
}

export async function issueAttestation(ctx: Ctx, { address: rawAddress }: { address: string }) {
  const { deps, now } = ctx;
  const address = normalizeAddress(rawAddress);
  if (!address) throw new AppError("INVALID_PARAMETER", "address must be a 0x EVM address", { field: "address" });
  const db = dbOf(ctx);
  const [agent] = await db.select().from(agents).where(eq(agents.id, address));
  if (!agent) throw new AppError("NOT_FOUND", `no reputation for ${address} on this server`);
  const rows = await reputationRows(db, address, agent.rating);
  const { counts, completed, weighted } = breakdownOf(rows.byType);
  const issuer = issuerOf(deps);
  const expires = new Date(now.getTime() + ATTESTATION_TTL_DAYS * 86_400_000);
  return signAttestation(
    {
      spec: ATTESTATION_SPEC,
      issued_at: now.toISOString(),
      expires_at: expires.toISOString(),
      issuer,
      subject: { chain_family: "evm", chain_id: issuer.chain_id, address: getAddress(address), aliases: [] },
      reputation: {
        elo: effectiveRating({ now }, agent), // §2: the current (decayed) rating at issued_at
        missions_completed: completed,
        missions_failed: rows.losses,
        missions_disputed: rows.disputed,
        // AIP-4 §6.3: disputes this agent filed that were rejected (each −5, already in `elo`).
        disputes_rejected: rows.penalties,
        total_earned_usd_equivalent: usdOf(deps, rows.earned),
        // AIP-2 mission types with at least one completion here (App. B), and their per-type ELO.
        types_active: Object.keys(rows.affinity),
        mission_type_affinity: rows.affinity,
        percentile: rows.percentile,
        last_active: agent.lastActiveAt?.toISOString() ?? null,
        breakdown: { bounties: { ...counts, total_weighted_points: weighted } },
      },
    },
    deps.attestation,
  );
}

/** The stored rows an attestation counts, read at once. */
async function reputationRows(db: DbOrTx, address: string, rating: number) {
  // Paid, non-self missions by verification type (the §2 breakdown) and earnings by asset.
  const paid = and(
    eq(submissions.submitter, address),
    isNotNull(submissions.payoutAmount),
    gt(submissions.payoutAmount, "0"),
    ne(missions.creator, address),
  );
  const [byType, earned, [losses], [disputed], [below], [total], affinity, [penalties]] = await Promise.all([
    db
      .select({ type: missions.verificationType, n: countDistinct(submissions.missionId) })
      .from(submissions)
      .innerJoin(missions, eq(missions.id, submissions.missionId))
      .where(paid)
      .groupBy(missions.verificationType),
    db
      .select({ asset: missions.rewardAsset, total: sql<string | null>`sum(${submissions.payoutAmount})::text` })
      .from(submissions)
      .innerJoin(missions, eq(missions.id, submissions.missionId))
      .where(paid)
      .groupBy(missions.rewardAsset),
    db
      .select({ n: count() })
      .from(ratingHistory)
      .where(and(eq(ratingHistory.agentId, address), eq(ratingHistory.kind, "loss"))),
    db
      .select({ n: countDistinct(disputes.missionId) })
      .from(disputes)
      .innerJoin(submissions, eq(submissions.id, disputes.submissionId))
      .where(eq(submissions.submitter, address)),
    db.select({ n: count() }).from(agents).where(lt(agents.rating, rating)),
    db.select({ n: count() }).from(agents),
    typeAffinity(db, address),
    db
      .select({ n: count() })
      .from(ratingHistory)
      .where(and(eq(ratingHistory.agentId, address), eq(ratingHistory.kind, "dispute_rejected"))),
  ]);
  return {
    byType,
    earned,
    affinity,
    losses: Number(losses?.n ?? 0),
    disputed: Number(disputed?.n ?? 0),
    penalties: Number(penalties?.n ?? 0),
    percentile: Number(total?.n ?? 0) > 0 ? Math.floor((Number(below?.n ?? 0) * 100) / Number(total!.n)) : 0,
  };
}

/** The §2 breakdown: paid missions per verification type, their total and weighted points. */
function breakdownOf(byType: { type: string; n: number }[]) {
  const counts = { first_valid_match: 0, oracle: 0, creator_judges: 0, peer_vote: 0 };
  let completed = 0;
  for (const r of byType) {
    completed += Number(r.n);
    if (r.type in counts) counts[r.type as keyof typeof counts] = Number(r.n);
  }
  const weighted = (Object.keys(counts) as (keyof typeof counts)[]).reduce(
    (s, k) => s + counts[k] * BREAKDOWN_WEIGHTS[k],
    0,
  );
  return { counts, completed, weighted };
}
