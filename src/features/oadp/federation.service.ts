import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import { oadpDomains, oadpHubs } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { dbOf, withTx, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { takeToken } from "../../lib/token-bucket";
import { checkHubUrl, normaliseSignalLayer } from "./federation.url";
import type { FederationReportInput, ReportedHubWire } from "./oadp.schemas";

/** OADP `hub_ttl_hours`: a verification counts this long, then the hub is re-checked. */
export const OADP_HUB_TTL_HOURS = 168;
/** OADP `scan_interval_minutes`: a reported domain is fetched at most this often. */
export const OADP_SCAN_INTERVAL_MINUTES = 60;

// OADP federation (docs/protocols/OADP-discovery.txt, "Federation"): agents report hubs they
// found; this hub deduplicates them and lists them with a `verified` flag. Reports are data only:
// nothing is fetched unless the operator enables verification (federation.verify.ts).

/** Reported hubs kept at most (a flood of distinct URLs from many addresses stops here). */
const MAX_KNOWN_HUBS = 10_000;

function requireFederation(deps: Deps): void {
  if (!deps.config.oadp.federationEnabled) {
    throw new AppError("SERVICE_UNAVAILABLE", "federation is disabled on this hub (OABP_OADP_FEDERATION_ENABLED)", {
      reason: "federation_disabled",
    });
  }
}

/**
 * POST /federation/report → {accepted, known}. `callerKey` is the authenticated address or the
 * client IP (never the User-Agent). Dedup: the hub's primary key is its normalised URL; a repeat
 * only bumps its report count. Each new domain gets a verification row, due at once — scanned
 * only if the operator enabled verification.
 */
export async function reportHub(
  ctx: Ctx,
  { callerKey, report: input }: { callerKey: string; report: FederationReportInput },
): Promise<{ accepted: true; known: boolean; hub_url: string }> {
  const { deps, now } = ctx;
  requireFederation(deps);
  // A shared Postgres token bucket (src/lib/token-bucket.ts): one budget across every instance.
  const rate = await takeToken(
    dbOf(ctx),
    `federation:${callerKey}`,
    { quota: deps.config.oadp.reportsPerHour, windowSeconds: 3600 },
    now,
  );
  if (!rate.ok)
    throw new AppError("RATE_LIMITED", `at most ${deps.config.oadp.reportsPerHour} federation reports per hour`, {
      retry_after_seconds: rate.retryAfterSeconds,
    });
  const checked = checkHubUrl(input.hub_url, deps.fetcher);
  if (!checked.ok) {
    throw new AppError("UNPROCESSABLE", `hub_url refused: ${checked.reason}`, {
      field: "hub_url",
      reason: checked.reason,
      ...(checked.detail && { detail: checked.detail }),
    });
  }
  const { url, domain } = checked;
  const db = dbOf(ctx);
  const bump = () =>
    db
      .update(oadpHubs)
      .set({ reportCount: sql`${oadpHubs.reportCount} + 1`, lastReportedAt: now })
      .where(eq(oadpHubs.url, url))
      .returning({ url: oadpHubs.url });
  if ((await bump()).length > 0) return { accepted: true, known: true, hub_url: url };

  // Approximate under concurrency (a few over the cap at most): the cap bounds storage, not a count.
  const [c] = await db.select({ n: sql<number>`count(*)::int` }).from(oadpHubs);
  if (Number(c?.n ?? 0) >= MAX_KNOWN_HUBS) {
    throw new AppError("SERVICE_UNAVAILABLE", "this hub keeps no more reported hubs", {
      reason: "hub_limit_reached",
      limit: MAX_KNOWN_HUBS,
    });
  }
  const inserted = await withTx(ctx, async (tx) => {
    const rows = await tx
      .insert(oadpHubs)
      .values({
        url,
        domain,
        signalLayer: normaliseSignalLayer(input.signal_layer),
        reportCount: 1,
        firstReportedAt: now,
        lastReportedAt: now,
      })
      .onConflictDoNothing({ target: oadpHubs.url })
      .returning({ url: oadpHubs.url });
    await tx
      .insert(oadpDomains)
      .values({ domain, status: "unverified", nextScanAt: now, createdAt: now })
      .onConflictDoNothing({ target: oadpDomains.domain });
    return rows.length > 0;
  });
  // Lost a race with an identical report: it is known now; count this report too.
  if (!inserted) await bump();
  return { accepted: true, known: !inserted, hub_url: url };
}

type Joined = typeof oadpHubs.$inferSelect & {
  status: string | null;
  hubName: string | null;
  verifiedAt: Date | null;
  lastScanAt: Date | null;
};

/** Verified = a valid self-description was fetched within the hub TTL (OADP "Hub Trust Lifecycle"). */
function hubToWire(h: Joined, now: Date, hubTtlHours: number): ReportedHubWire {
  const lapsed =
    h.status === "verified" &&
    hubTtlHours > 0 &&
    h.verifiedAt !== null &&
    now.getTime() - h.verifiedAt.getTime() >= hubTtlHours * 3_600_000;
  const status = (lapsed ? "stale" : (h.status ?? "unverified")) as ReportedHubWire["status"];
  return {
    hub_url: h.url,
    domain: h.domain,
    signal_layer: h.signalLayer,
    report_count: h.reportCount,
    first_reported_at: h.firstReportedAt.toISOString(),
    last_reported_at: h.lastReportedAt.toISOString(),
    verified: status === "verified",
    status,
    hub_name: h.hubName,
    verified_at: h.verifiedAt?.toISOString() ?? null,
    last_checked_at: h.lastScanAt?.toISOString() ?? null,
  };
}

const encodeCursor = (at: Date, url: string) =>
  Buffer.from(JSON.stringify([at.toISOString(), url])).toString("base64url");
function decodeCursor(cursor: string): { at: Date; url: string } {
  try {
    const [at, url] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
    const d = new Date(at);
    if (typeof url === "string" && !Number.isNaN(d.getTime())) return { at: d, url };
  } catch {
    /* fall through */
  }
  throw new AppError("INVALID_PARAMETER", "cursor is not valid", { field: "cursor" });
}

/** GET /federation/hubs: newest report first, keyset on (first_reported_at, url). */
export async function listHubs(
  ctx: Ctx,
  q: { verified?: "true" | "false" | undefined; limit: number; cursor?: string | undefined },
) {
  const { deps, now } = ctx;
  requireFederation(deps);
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  const conds = [];
  if (after)
    conds.push(
      or(
        lt(oadpHubs.firstReportedAt, after.at),
        and(eq(oadpHubs.firstReportedAt, after.at), lt(oadpHubs.url, after.url)),
      ),
    );
  const fresh = sql`${oadpDomains.verifiedAt} > ${new Date(now.getTime() - OADP_HUB_TTL_HOURS * 3_600_000).toISOString()}::timestamptz`;
  if (q.verified === "true") conds.push(and(eq(oadpDomains.status, "verified"), fresh));
  if (q.verified === "false") conds.push(sql`not (coalesce(${oadpDomains.status} = 'verified', false) and ${fresh})`);
  const rows = await dbOf(ctx)
    .select({
      hub: oadpHubs,
      status: oadpDomains.status,
      hubName: oadpDomains.hubName,
      verifiedAt: oadpDomains.verifiedAt,
      lastScanAt: oadpDomains.lastScanAt,
    })
    .from(oadpHubs)
    .leftJoin(oadpDomains, eq(oadpDomains.domain, oadpHubs.domain))
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(desc(oadpHubs.firstReportedAt), desc(oadpHubs.url))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    hubs: page.map((r) =>
      hubToWire(
        { ...r.hub, status: r.status, hubName: r.hubName, verifiedAt: r.verifiedAt, lastScanAt: r.lastScanAt },
        now,
        OADP_HUB_TTL_HOURS,
      ),
    ),
    next_cursor: rows.length > q.limit && last ? encodeCursor(last.hub.firstReportedAt, last.hub.url) : null,
    verification_enabled: deps.config.oadp.federationVerify,
  };
}
