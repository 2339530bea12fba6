import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { agents, reputationImports } from "../../db/schema/index";
import type { DbOrTx } from "../../db/client";
import { withTx, type Ctx } from "../../lib/context";
import { START_RATING } from "../reputation";
import {
  ACCEPTED_SPECS,
  Attestation,
  attestationSigners,
  checkBreakdown,
  freshnessFactor,
  importedElo,
  MAX_AGE_DAYS,
} from "./portability.format";
import { issuerKey, normaliseIssuer, trustedIssuer } from "./portability.issuers";

// AIP-3 §4 POST /reputation/import. Decisions (docs/aip-3-4.md): ELO_floor = this server's start
// rating (1400, AIP-1 §5 — an import never starts anyone below a newcomer), ELO_max 1600 (§5
// default), trust_factor per issuer (default OABP_IMPORT_TRUST_FACTOR 0.5), no specialty bonus.
// Imported reputation never changes the local rating: it is stored and shown beside it.

export const ELO_FLOOR = START_RATING;
export const ELO_MAX = 1600;
export const TRANSITION_MISSIONS = 3;
/** Issuers remembered per subject (§5 aggregation over at most this many). */
export const MAX_ISSUERS_PER_SUBJECT = 5;
const SKEW_MS = 5 * 60_000;

export const IMPORT_REASONS = [
  "attestation_malformed",
  "spec_unsupported",
  "subject_unsupported",
  "attestation_expired",
  "lifetime_exceeds_90_days",
  "issued_in_future",
  "breakdown_invalid",
  "issuer_is_self",
  "issuer_unknown",
  "issuer_unreachable",
  "issuer_key_missing",
  "issuer_key_mismatch",
  "signature_invalid",
  "too_many_issuers",
  "subject_not_caller",
] as const;
export type ImportReason = (typeof IMPORT_REASONS)[number];

export type ImportResult =
  | {
      ok: true;
      body: {
        imported: true;
        subject_address: string;
        issuer: string;
        initial_elo: number;
        aggregated_elo: number;
        trust_factor_applied: number;
        freshness_factor_applied: number;
        valid_until: string;
        transitions_to_local_after_n_missions: number;
      };
    }
  | { ok: false; reason: ImportReason; detail: string };

const fail = (reason: ImportReason, detail: string): ImportResult => ({ ok: false, reason, detail });

export async function importAttestation(ctx: Ctx, body: unknown): Promise<ImportResult> {
  const { deps, now } = ctx;
  const parsed = Attestation.safeParse(body);
  if (!parsed.success)
    return fail(
      "attestation_malformed",
      parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; "),
    );
  const doc = parsed.data;
  if (!ACCEPTED_SPECS.includes(doc.spec))
    return fail("spec_unsupported", `spec must be one of ${ACCEPTED_SPECS.join(", ")}`);
  const subject = doc.subject.address.toLowerCase();
  if (doc.subject.chain_family !== "evm" || !/^0x[0-9a-f]{40}$/.test(subject))
    return fail("subject_unsupported", "agents here are EVM addresses (AIP-1 §1)");
  const issuedAt = new Date(doc.issued_at);
  const expiresAt = new Date(doc.expires_at);
  if (expiresAt.getTime() - issuedAt.getTime() > MAX_AGE_DAYS * 86_400_000)
    return fail("lifetime_exceeds_90_days", "expires_at must be at most 90 days after issued_at (AIP-3 §2)");
  if (issuedAt.getTime() > now.getTime() + SKEW_MS) return fail("issued_in_future", "issued_at is in the future");
  if (expiresAt <= now) return fail("attestation_expired", `expired at ${doc.expires_at}`);
  const breakdown = checkBreakdown(doc.reputation);
  if (!breakdown.ok) return fail(breakdown.reason, breakdown.detail);

  const issuer = normaliseIssuer(doc.issuer.oabp_server);
  if (!issuer) return fail("issuer_unknown", "issuer.oabp_server must be an http(s) base URL");
  if (
    issuer === normaliseIssuer(deps.config.publicUrl) ||
    doc.issuer.server_address.toLowerCase() === deps.attestation.address
  ) {
    return fail("issuer_is_self", "this server's own attestations are not imported: its local rating already counts");
  }
  const trusted = trustedIssuer(deps, issuer);
  if (!trusted && !deps.config.aip34.openImport)
    return fail("issuer_unknown", `${issuer} is not a trusted issuer here (GET /reputation/trusted-issuers)`);
  // Open import (an issuer nobody vetted): only the subject itself, signed in, may import, so no
  // third party fills its issuer slots with attestations it never asked for (docs/aip-3-4.md).
  if (!trusted && (ctx.caller.kind !== "agent" || ctx.caller.address !== subject))
    return fail("subject_not_caller", "an attestation from an untrusted issuer is imported by its subject only");
  const claimed = doc.issuer.server_address.toLowerCase();
  if (trusted?.server_address && trusted.server_address !== claimed)
    return fail("issuer_key_mismatch", "issuer.server_address is not the key configured for this issuer");
  const key = await issuerKey(deps, issuer);
  if (!key.ok) return fail(key.reason, key.detail);
  if (key.address !== claimed)
    return fail("issuer_key_mismatch", "issuer.server_address differs from the issuer_address its manifest publishes");
  const signers = await attestationSigners(doc as typeof doc & { signature: { value: string } });
  if (!signers.includes(claimed))
    return fail("signature_invalid", "the signature does not recover to the issuer's key (AIP-3 §2.1)");

  const trustFactor = trusted?.trust_factor ?? deps.config.aip34.trustFactor;
  const freshness = freshnessFactor(issuedAt, now);
  const initial = importedElo({ floor: ELO_FLOOR, max: ELO_MAX, attested: doc.reputation.elo, trustFactor, freshness });
  // Locking: a transaction-scoped advisory lock per subject serialises its imports (issuer cap).
  return withTx(ctx, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`rep-import:${subject}`}))`);
    // One issuer is one origin (scheme + host + port), whatever its URL path: a new import from
    // another path of a held origin replaces that one, so one host never counts as many issuers.
    const origin = new URL(issuer).origin;
    const held = await tx
      .select({ issuer: reputationImports.issuer })
      .from(reputationImports)
      .where(and(eq(reputationImports.subject, subject), gt(reputationImports.validUntil, now)));
    const origins = new Set(held.map((h) => new URL(h.issuer).origin));
    if (!origins.has(origin) && origins.size >= MAX_ISSUERS_PER_SUBJECT)
      return fail("too_many_issuers", `at most ${MAX_ISSUERS_PER_SUBJECT} live imports per agent`);
    const sameOrigin = held.filter((h) => h.issuer !== issuer && new URL(h.issuer).origin === origin);
    if (sameOrigin.length > 0)
      await tx.delete(reputationImports).where(
        and(
          eq(reputationImports.subject, subject),
          inArray(
            reputationImports.issuer,
            sameOrigin.map((h) => h.issuer),
          ),
        ),
      );
    const [a] = await tx.select({ completed: agents.missionsCompleted }).from(agents).where(eq(agents.id, subject));
    const row = {
      subject,
      issuer,
      serverAddress: claimed,
      attestedElo: doc.reputation.elo,
      trustFactor,
      freshnessFactor: freshness,
      initialElo: initial,
      issuedAt,
      validUntil: expiresAt,
      missionsBaseline: a?.completed ?? 0,
      attestation: doc as Record<string, unknown>,
      importedAt: now,
    };
    // A replayed older attestation never replaces a newer one from the same issuer.
    await tx
      .insert(reputationImports)
      .values(row)
      .onConflictDoUpdate({
        target: [reputationImports.subject, reputationImports.issuer],
        set: {
          serverAddress: row.serverAddress,
          attestedElo: row.attestedElo,
          trustFactor,
          freshnessFactor: freshness,
          initialElo: initial,
          issuedAt,
          validUntil: expiresAt,
          attestation: row.attestation,
          importedAt: now,
        },
        setWhere: sql`${reputationImports.issuedAt} <= ${issuedAt.toISOString()}`,
      });
    const view = await importedReputation(
      tx,
      subject,
      now,
      a?.completed ?? 0,
      deps.config.aip34.typeOverlapTrustFactor,
    );
    return {
      ok: true as const,
      body: {
        imported: true as const,
        subject_address: subject,
        issuer: `${issuer}/`,
        initial_elo: initial,
        aggregated_elo: view?.elo ?? initial,
        trust_factor_applied: trustFactor,
        freshness_factor_applied: Math.round(freshness * 1000) / 1000,
        valid_until: expiresAt.toISOString(),
        transitions_to_local_after_n_missions: TRANSITION_MISSIONS,
      },
    };
  });
}

/**
 * The imported reputation shown beside the local rating (profile, discovery): §5 aggregation
 * (equal weights) over the imports still live — before their expires_at and before the agent
 * completed 3 local missions since (§4 step 4). null when none is live.
 */
export async function importedReputation(
  db: DbOrTx,
  subject: string,
  now: Date,
  missionsCompleted: number,
  typeOverlapTrustFactor = 0,
) {
  const rows = await db
    .select()
    .from(reputationImports)
    .where(and(eq(reputationImports.subject, subject), gt(reputationImports.validUntil, now)))
    .limit(MAX_ISSUERS_PER_SUBJECT * 2);
  const live = rows.filter((r) => missionsCompleted - r.missionsBaseline < TRANSITION_MISSIONS);
  if (live.length === 0) return null;
  const aggregate = (tf: (r: (typeof live)[number]) => number) => {
    const boost = live.reduce((s, r) => s + (r.attestedElo - ELO_FLOOR) * tf(r) * r.freshnessFactor, 0) / live.length;
    return Math.min(ELO_MAX, Math.max(ELO_FLOOR, Math.floor(ELO_FLOOR + boost)));
  };
  // AIP-3 App. B: for each type an import attests as active, that import counts with the
  // type-overlap trust factor when it is higher than its own (docs/aip-3-4.md).
  const typesOf = (r: (typeof live)[number]) => new Set(attestedTypes(r.attestation));
  const types = [...new Set(live.flatMap((r) => [...typesOf(r)]))].sort();
  return {
    elo: aggregate((r) => r.trustFactor),
    by_mission_type: Object.fromEntries(
      types.map((t) => [
        t,
        aggregate((r) => (typesOf(r).has(t) ? Math.max(r.trustFactor, typeOverlapTrustFactor) : r.trustFactor)),
      ]),
    ),
    valid_until: new Date(Math.min(...live.map((r) => r.validUntil.getTime()))).toISOString(),
    missions_until_local: Math.max(
      0,
      TRANSITION_MISSIONS - Math.max(...live.map((r) => missionsCompleted - r.missionsBaseline)),
    ),
    sources: live.map((r) => ({
      issuer: `${r.issuer}/`,
      server_address: r.serverAddress,
      attested_elo: r.attestedElo,
      trust_factor: r.trustFactor,
      freshness_factor: Math.round(r.freshnessFactor * 1000) / 1000,
      initial_elo: r.initialElo,
      types_active: attestedTypes(r.attestation),
      issued_at: r.issuedAt.toISOString(),
      valid_until: r.validUntil.toISOString(),
    })),
  };
}

/** The attested `reputation.types_active` of a stored (validated: ≤ 64 strings) attestation. */
function attestedTypes(doc: Record<string, unknown>): string[] {
  const t = (doc.reputation as { types_active?: unknown } | undefined)?.types_active;
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === "string").slice(0, 64) : [];
}

/** GET /reputation/trusted-issuers (AIP-3 §6). */
export function trustedIssuers(ctx: Ctx) {
  const { deps } = ctx;
  return {
    open_import: deps.config.aip34.openImport,
    // §6 entry shape; chain_family defaults to "evm" (AIP-1 servers are EVM), chain_id and added
    // are what the operator configured (null when not said: never invented).
    trusted_issuers: deps.config.aip34.trustedIssuers.map((t) => ({
      oabp_server: `${normaliseIssuer(t.url) ?? t.url}/`,
      chain_family: t.chain_family ?? "evm",
      chain_id: t.chain_id ?? null,
      server_address: t.server_address ?? null,
      trust_factor: t.trust_factor ?? deps.config.aip34.trustFactor,
      added: t.added ? new Date(t.added).toISOString() : null,
      private_network: t.private_address !== undefined,
    })),
  };
}

/** Discovery: the live imported ELO of each listed agent (one read; absent = none live). */
export async function importedElos(
  db: DbOrTx,
  list: { id: string; missionsCompleted: number }[],
  now: Date,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (list.length === 0) return out;
  const done = new Map(list.map((a) => [a.id, a.missionsCompleted]));
  const rows = await db
    .select()
    .from(reputationImports)
    .where(and(inArray(reputationImports.subject, [...done.keys()]), gt(reputationImports.validUntil, now)));
  const bySubject = new Map<string, (typeof rows)[number][]>();
  for (const r of rows)
    if ((done.get(r.subject) ?? 0) - r.missionsBaseline < TRANSITION_MISSIONS)
      bySubject.set(r.subject, [...(bySubject.get(r.subject) ?? []), r]);
  for (const [id, live] of bySubject) {
    const boost =
      live.reduce((s, r) => s + (r.attestedElo - ELO_FLOOR) * r.trustFactor * r.freshnessFactor, 0) / live.length;
    out.set(id, Math.min(ELO_MAX, Math.max(ELO_FLOOR, Math.floor(ELO_FLOOR + boost))));
  }
  return out;
}
