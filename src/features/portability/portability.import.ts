import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { agents, reputationImports } from "../../db/schema/index";
import type { DbOrTx, Tx } from "../../db/client";
import { withTx, type Ctx } from "../../lib/context";
import { START_RATING } from "../reputation";
import { freshnessFactor, importedElo } from "./portability.format";
import { normaliseIssuer } from "./portability.issuers";
import { verifyAttestation, type ImportReason, type Refused, type Verified } from "./portability.verify";

/** AIP-3 §3 default trust_factor of an imported attestation (a trusted issuer's own value overrides it). */
export const IMPORT_TRUST_FACTOR = 0.5;
/**
 * AIP-3 App. B: for a mission type an import's `types_active` lists, that import counts with
 * max(its trust_factor, this) in `imported_reputation.by_mission_type`.
 */
export const TYPE_OVERLAP_TRUST_FACTOR = 0.7;

// AIP-3 §4 POST /reputation/import. Decisions (docs/aip-3-4.md): ELO_floor = this server's start
// rating (1400, AIP-1 §5 — an import never starts anyone below a newcomer), ELO_max 1600 (§5
// default), trust_factor per issuer (default IMPORT_TRUST_FACTOR 0.5), no specialty bonus.
// Imported reputation never changes the local rating: it is stored and shown beside it.

const ELO_FLOOR = START_RATING;
const ELO_MAX = 1600;
const TRANSITION_MISSIONS = 3;
/** Issuers remembered per subject (§5 aggregation over at most this many). */
const MAX_ISSUERS_PER_SUBJECT = 5;

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

/**
 * Which issuers an import admits (before any network fetch): a trusted one, or with open import
 * on, any issuer — but then only the subject itself, signed in, may import, so no third party
 * fills its issuer slots with attestations it never asked for (docs/aip-3-4.md).
 */
const importAdmits =
  (ctx: Ctx) =>
  (issuer: string, trusted: unknown, subject: string): Refused | null => {
    if (!trusted && !ctx.deps.config.aip34.openImport)
      return {
        ok: false,
        reason: "issuer_unknown",
        detail: `${issuer} is not a trusted issuer here (GET /reputation/trusted-issuers)`,
      };
    if (!trusted && (ctx.caller.kind !== "agent" || ctx.caller.address !== subject))
      return {
        ok: false,
        reason: "subject_not_caller",
        detail: "an attestation from an untrusted issuer is imported by its subject only",
      };
    return null;
  };

export async function importAttestation(ctx: Ctx, body: unknown): Promise<ImportResult> {
  const { now } = ctx;
  const v = await verifyAttestation(ctx, { body, admit: importAdmits(ctx) });
  if (!v.ok) return v;
  const trustFactor = v.trusted?.trust_factor ?? IMPORT_TRUST_FACTOR;
  const freshness = freshnessFactor({ now }, v.issuedAt);
  const initial = importedElo({
    floor: ELO_FLOOR,
    max: ELO_MAX,
    attested: v.doc.reputation.elo,
    trustFactor,
    freshness,
  });
  // Locking: a transaction-scoped advisory lock per subject serialises its imports (issuer cap).
  return withTx(ctx, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`rep-import:${v.subject}`}))`);
    const room = await makeRoom(tx, v.subject, v.issuer, now);
    if (!room) return fail("too_many_issuers", `at most ${MAX_ISSUERS_PER_SUBJECT} live imports per agent`);
    const [a] = await tx.select({ completed: agents.missionsCompleted }).from(agents).where(eq(agents.id, v.subject));
    await storeImport(tx, v, { trustFactor, freshness, initial, baseline: a?.completed ?? 0, now });
    const view = await importedReputation(tx, {
      subject: v.subject,
      now,
      missionsCompleted: a?.completed ?? 0,
      typeOverlapTrustFactor: TYPE_OVERLAP_TRUST_FACTOR,
    });
    return {
      ok: true as const,
      body: {
        imported: true as const,
        subject_address: v.subject,
        issuer: `${v.issuer}/`,
        initial_elo: initial,
        aggregated_elo: view?.elo ?? initial,
        trust_factor_applied: trustFactor,
        freshness_factor_applied: Math.round(freshness * 1000) / 1000,
        valid_until: v.expiresAt.toISOString(),
        transitions_to_local_after_n_missions: TRANSITION_MISSIONS,
      },
    };
  });
}

/**
 * One issuer is one origin (scheme + host + port), whatever its URL path: a new import from
 * another path of a held origin replaces that one, so one host never counts as many issuers.
 * False when the subject already holds MAX_ISSUERS_PER_SUBJECT other live origins.
 */
async function makeRoom(tx: Tx, subject: string, issuer: string, now: Date): Promise<boolean> {
  const origin = new URL(issuer).origin;
  const held = await tx
    .select({ issuer: reputationImports.issuer })
    .from(reputationImports)
    .where(and(eq(reputationImports.subject, subject), gt(reputationImports.validUntil, now)));
  const origins = new Set(held.map((h) => new URL(h.issuer).origin));
  if (!origins.has(origin) && origins.size >= MAX_ISSUERS_PER_SUBJECT) return false;
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
  return true;
}

/** Stores the import per (subject, issuer); a replayed older attestation never replaces a newer one. */
async function storeImport(
  tx: Tx,
  v: Verified,
  f: { trustFactor: number; freshness: number; initial: number; baseline: number; now: Date },
) {
  const row = {
    subject: v.subject,
    issuer: v.issuer,
    serverAddress: v.claimed,
    attestedElo: v.doc.reputation.elo,
    trustFactor: f.trustFactor,
    freshnessFactor: f.freshness,
    initialElo: f.initial,
    issuedAt: v.issuedAt,
    validUntil: v.expiresAt,
    missionsBaseline: f.baseline,
    attestation: v.doc as Record<string, unknown>,
    importedAt: f.now,
  };
  await tx
    .insert(reputationImports)
    .values(row)
    .onConflictDoUpdate({
      target: [reputationImports.subject, reputationImports.issuer],
      set: {
        serverAddress: row.serverAddress,
        attestedElo: row.attestedElo,
        trustFactor: row.trustFactor,
        freshnessFactor: row.freshnessFactor,
        initialElo: row.initialElo,
        issuedAt: row.issuedAt,
        validUntil: row.validUntil,
        attestation: row.attestation,
        importedAt: row.importedAt,
      },
      setWhere: sql`${reputationImports.issuedAt} <= ${v.issuedAt.toISOString()}`,
    });
}

/**
 * The imported reputation shown beside the local rating (profile, discovery): §5 aggregation
 * (equal weights) over the imports still live — before their expires_at and before the agent
 * completed 3 local missions since (§4 step 4). null when none is live.
 */
export async function importedReputation(
  db: DbOrTx,
  input: { subject: string; now: Date; missionsCompleted: number; typeOverlapTrustFactor?: number },
) {
  const { subject, now, missionsCompleted, typeOverlapTrustFactor = 0 } = input;
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
      trust_factor: t.trust_factor ?? IMPORT_TRUST_FACTOR,
      added: t.added ? new Date(t.added).toISOString() : null,
      private_network: t.private_address !== undefined,
    })),
  };
}

/** Discovery: the live imported ELO of each listed agent (one read; absent = none live). */
export async function importedElos(
  ctx: Pick<Ctx, "deps" | "now">,
  list: { id: string; missionsCompleted: number }[],
): Promise<Map<string, number>> {
  const { now } = ctx;
  const out = new Map<string, number>();
  if (list.length === 0) return out;
  const done = new Map(list.map((a) => [a.id, a.missionsCompleted]));
  const rows = await ctx.deps.database.db
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
