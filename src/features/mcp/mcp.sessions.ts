import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { identityOfSessionHash } from "../auth";
import { mcpSessions } from "../../db/schema/index";
import { affectedOf } from "../../db/rows";
import { NotifiedCache, notifiedCaches } from "../../db/notified-cache";
import type { Deps } from "../../deps";
import type { Identity } from "../../http/types";
import { randomToken } from "../../lib/hash";
import {
  MCP_HANDSHAKE_TIMEOUT_SECONDS,
  MCP_SESSION_COOLING_SECONDS,
  MCP_SESSION_IDLE_SECONDS,
} from "../../lib/mcp-contract";
import { AppError } from "../../lib/errors";
import type { Tx } from "../../db/client";

// MCP sessions (AIP-1 §7.3) live in Postgres so that any instance serves any session. Each
// instance keeps the *active* sessions it has seen in a small cache (a tools/call then needs no
// database round trip); a termination anywhere reaches every instance's cache through NOTIFY
// (delivered on commit), and a cached entry is re-read at least every CACHE_RECHECK_MS anyway,
// in case a notification was lost.

/** NOTIFY channel carrying the id of every terminated session. */
const MCP_SESSION_ENDED = "oabp_mcp_session_ended";
const CACHE_RECHECK_MS = 30_000;
const CACHE_MAX = 10_000;
/** An active session's idle deadline is pushed back at most once a minute (a write per call would not scale). */
const EXTEND_EVERY_MS = 60_000;
const PURGE_BATCH = 1000;

export interface LiveSession {
  id: string;
  state: "pending" | "active";
  agentId: string | null;
  /** Set by the sign_in tool: the SIWE session this MCP session acts under (docs/mcp.md "Sign-in over MCP"). */
  authTokenHash: string | null;
  protocolVersion: string;
  expiresAt: Date;
}

/**
 * A session opened by a signed-in agent is invisible to every other caller (MCP 2025-06-18
 * security: bind sessions to the user). Identity itself still comes with each request, as on
 * REST; a session opened anonymously may be used with any credentials.
 */
export const ownedBy = (s: LiveSession, who: Identity) =>
  s.agentId === null || (who.kind === "agent" && who.address === s.agentId);

/**
 * Who a request on `session` acts as: its own `identity` (credentials), else — on a session signed in with
 * the sign_in tool — the agent of that SIWE session while it lives (docs/mcp.md "Sign-in over MCP").
 */
export async function actingIdentity(
  deps: Deps,
  { session, identity }: { session: LiveSession; identity: Identity },
): Promise<Identity> {
  return session.authTokenHash && identity.kind === "anonymous"
    ? identityOfSessionHash(deps, session.authTokenHash)
    : identity;
}

/** Visible ASCII only (MCP 2025-06-18 §Session Management); 256 random bits. */
const randomSessionId = () => `mcp_${randomToken(32)}`;

/** The active sessions this instance has seen (src/db/notified-cache.ts); pending ones are always read. */
const cacheOf = notifiedCaches<LiveSession>(MCP_SESSION_ENDED, { max: CACHE_MAX, what: "MCP sessions" });
const keep = (cache: NotifiedCache<LiveSession>, s: LiveSession, at: number, startedAt: number) => {
  if (s.state === "active") cache.set(s.id, s, at, startedAt);
};

const liveColumns = {
  id: mcpSessions.id,
  state: mcpSessions.state,
  agentId: mcpSessions.agentId,
  authTokenHash: mcpSessions.authTokenHash,
  protocolVersion: mcpSessions.protocolVersion,
  expiresAt: mcpSessions.expiresAt,
};

/**
 * `initialize`: a new pending session that must see `notifications/initialized` within the
 * handshake window (§7.3.1). An id is never reassigned while its session is pending, active, or
 * ended less than the cooling period ago (§7.3.3): the primary key refuses it, and an old row is
 * only overwritten once it ended ≥ cooling seconds ago. `newId` is an input for that test.
 */
export async function createSession(
  deps: Deps,
  input: {
    protocolVersion: string;
    agentId: string | null;
    clientName: string | null;
    clientVersion: string | null;
    clientIp?: string;
    newId?: () => string;
  },
): Promise<{ id: string; expiresAt: Date }> {
  const newId = input.newId ?? randomSessionId;
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + MCP_HANDSHAKE_TIMEOUT_SECONDS * 1000);
  const reusableBefore = new Date(now.getTime() - MCP_SESSION_COOLING_SECONDS * 1000);
  const clientIp = input.clientIp ?? null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = {
      id: newId(),
      state: "pending",
      protocolVersion: input.protocolVersion,
      agentId: input.agentId,
      clientName: input.clientName,
      clientVersion: input.clientVersion,
      clientIp,
      createdAt: now,
      initializedAt: null,
      terminatedAt: null,
      expiresAt,
    };
    const won = await deps.database.db.transaction(async (tx) => {
      if (clientIp !== null) await capPendingPerIp(tx, deps, clientIp, now);
      return tx
        .insert(mcpSessions)
        .values(row)
        .onConflictDoUpdate({ target: mcpSessions.id, set: row, setWhere: lte(mcpSessions.expiresAt, reusableBefore) })
        .returning({ id: mcpSessions.id });
    });
    if (won.length === 1) return { id: row.id, expiresAt };
  }
  throw new Error("could not mint an unused MCP session id");
}

/**
 * Pending sessions (handshake not finished) per client IP are capped: each costs a
 * row until its window ends. A transaction-scoped advisory lock on the IP serialises the count
 * and the insert across instances, so the cap holds under concurrency.
 */
async function capPendingPerIp(tx: Tx, deps: Deps, ip: string, now: Date): Promise<void> {
  const cap = deps.config.mcpPendingPerIp;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mcp_pending:${ip}`}))`);
  const [r] = await tx
    .select({ n: sql<number>`count(*)::int`, first: sql<string | null>`min(${mcpSessions.expiresAt})::text` })
    .from(mcpSessions)
    .where(and(eq(mcpSessions.clientIp, ip), eq(mcpSessions.state, "pending"), gt(mcpSessions.expiresAt, now)));
  if (Number(r?.n ?? 0) < cap) return;
  const retry = r?.first ? Math.max(1, Math.ceil((new Date(r.first).getTime() - now.getTime()) / 1000)) : 1;
  throw new AppError(
    "RATE_LIMITED",
    `at most ${cap} MCP sessions may wait for notifications/initialized per client address; finish or abandon one`,
    {
      reason: "pending_sessions",
      limit: cap,
      retry_after_seconds: retry,
    },
  );
}

/** The session if it is pending or active and not past its deadline; undefined otherwise. */
export async function findSession(deps: Deps, id: string): Promise<LiveSession | undefined> {
  const now = deps.clock.now();
  const cache = cacheOf(deps);
  const hit = cache.get(id);
  if (hit && hit.value.expiresAt > now && now.getTime() - hit.checkedAt < CACHE_RECHECK_MS) {
    return extendIfDue(deps, cache, hit.value, now);
  }
  const startedAt = cache.generation;
  const [row] = await deps.database.db.select(liveColumns).from(mcpSessions).where(eq(mcpSessions.id, id));
  if (!row || row.state === "terminated" || row.expiresAt <= now) {
    if (hit) cache.evict(id);
    return undefined;
  }
  const session = row as LiveSession;
  keep(cache, session, now.getTime(), startedAt);
  return extendIfDue(deps, cache, session, now);
}

/** Sliding idle deadline for active sessions, written at most once a minute per session. */
async function extendIfDue(
  deps: Deps,
  cache: NotifiedCache<LiveSession>,
  s: LiveSession,
  now: Date,
): Promise<LiveSession> {
  const idleMs = MCP_SESSION_IDLE_SECONDS * 1000;
  if (s.state !== "active" || s.expiresAt.getTime() - now.getTime() > idleMs - EXTEND_EVERY_MS) return s;
  const startedAt = cache.generation;
  const expiresAt = new Date(now.getTime() + idleMs);
  const [row] = await deps.database.db
    .update(mcpSessions)
    .set({ expiresAt })
    .where(and(eq(mcpSessions.id, s.id), eq(mcpSessions.state, "active"), gt(mcpSessions.expiresAt, now)))
    .returning(liveColumns);
  if (!row) {
    cache.evict(s.id);
    return s; // ended concurrently; this request was already admitted
  }
  const session = row as LiveSession;
  keep(cache, session, now.getTime(), startedAt);
  return session;
}

/**
 * `notifications/initialized`: pending → active, only inside the handshake window (a late
 * notification finds the session expired). Repeating it on an active session is harmless.
 */
export async function activateSession(deps: Deps, id: string): Promise<LiveSession | undefined> {
  const now = deps.clock.now();
  const cache = cacheOf(deps);
  const startedAt = cache.generation;
  const [row] = await deps.database.db
    .update(mcpSessions)
    .set({
      state: "active",
      initializedAt: now,
      expiresAt: new Date(now.getTime() + MCP_SESSION_IDLE_SECONDS * 1000),
    })
    .where(and(eq(mcpSessions.id, id), eq(mcpSessions.state, "pending"), gt(mcpSessions.expiresAt, now)))
    .returning(liveColumns);
  if (row) {
    const session = row as LiveSession;
    keep(cache, session, now.getTime(), startedAt);
    return session;
  }
  const existing = await findSession(deps, id);
  return existing?.state === "active" ? existing : undefined;
}

/**
 * The sign_in tool: the active session `id` now acts as `agentId` under the SIWE session whose
 * token hashes to `tokenHash`. A session opened by another agent is never taken over (the
 * conditional update); one opened anonymously or by the same agent is bound. This instance's cache
 * forgets the entry at once; another instance re-reads it within CACHE_RECHECK_MS, meanwhile
 * answering that session's credential-less calls as anonymous (refusals, never another identity).
 */
export async function bindSignIn(
  deps: Deps,
  { id, agentId, tokenHash }: { id: string; agentId: string; tokenHash: string },
): Promise<boolean> {
  const now = deps.clock.now();
  const rows = await deps.database.db
    .update(mcpSessions)
    .set({ agentId, authTokenHash: tokenHash })
    .where(
      and(
        eq(mcpSessions.id, id),
        eq(mcpSessions.state, "active"),
        gt(mcpSessions.expiresAt, now),
        or(isNull(mcpSessions.agentId), eq(mcpSessions.agentId, agentId)),
      ),
    )
    .returning({ id: mcpSessions.id });
  cacheOf(deps).evict(id);
  return rows.length > 0;
}

/**
 * DELETE /mcp (§7.3.2): the session ends now; its id stays reserved for the cooling period
 * (`expires_at` = now, purged `cooling` seconds later). The NOTIFY in the same statement reaches
 * every instance's cache on commit. True when a live session was ended.
 */
export async function terminateSession(deps: Deps, id: string): Promise<boolean> {
  const now = deps.clock.now();
  cacheOf(deps).evict(id);
  const rows = (await deps.database.db.execute(sql`
    with ended as (
      update ${mcpSessions} set state = 'terminated', terminated_at = ${now.toISOString()}::timestamptz, expires_at = ${now.toISOString()}::timestamptz
      where id = ${id} and state <> 'terminated' and expires_at > ${now.toISOString()}::timestamptz
      returning id
    )
    select pg_notify(${MCP_SESSION_ENDED}, id) from ended`)) as unknown as { rows?: unknown[]; length?: number };
  return (rows.rows?.length ?? rows.length ?? 0) > 0;
}

/**
 * Job: deletes sessions that ended (terminated, handshake window missed, idle) at least the
 * cooling period ago, in bounded batches. A pending session is unusable from the end of its
 * window on (findSession checks the deadline), whether or not this has run yet.
 */
export async function purgeEndedSessions(deps: Deps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - MCP_SESSION_COOLING_SECONDS * 1000);
  return affectedOf(
    await deps.database.db.execute(sql`
    delete from ${mcpSessions} where id in (
      select id from ${mcpSessions} where expires_at <= ${before.toISOString()}::timestamptz limit ${PURGE_BATCH}
    )`),
  );
}
