import { and, asc, eq, lte, sql } from "drizzle-orm";
import { parseJsonBounded } from "../../lib/json-text";
import { oadpDomains } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { SafeFetchResult } from "../../lib/safe-fetch";
import { AGENT_PROTOCOL_PATH } from "../wellknown";
import { OADP_HUB_TTL_HOURS, OADP_SCAN_INTERVAL_MINUTES } from "./federation.service";

// Verification of reported hubs (OADP "Hub Verification", "Hub Trust Lifecycle", "Scan Rate
// Limiting"), only when the operator sets OABP_OADP_FEDERATION_VERIFY — never in a request. A
// domain is claimed by moving next_scan_at a full scan interval ahead under SKIP LOCKED (the
// claim doubles as its lease: a crash mid-fetch retries after the interval), fetched through the
// SSRF-safe fetcher, and its verdict recorded conditionally on that claim. No domain is fetched
// more often than the scan interval, whatever the number of reports.

const BATCH = 5;
const MAX_DOCUMENT_BYTES = 64 * 1024;
const MAX_BACKOFF_MS = 7 * 86_400_000;

export type HubCheck = { ok: true; name: string } | { ok: false; reason: string };

/** OADP: protocol "oadp/1.x" and a hub with a name and a URL. */
export function checkAgentProtocolDocument(r: SafeFetchResult): HubCheck {
  if (!r.ok) return { ok: false, reason: r.reason };
  if (r.status !== 200) return { ok: false, reason: `http_${r.status}` };
  let doc: unknown;
  try {
    doc = parseJsonBounded(r.body.toString("utf8"));
  } catch {
    return { ok: false, reason: "not_json" };
  }
  const d = doc as { protocol?: unknown; hub?: { name?: unknown; url?: unknown } } | null;
  if (!d || typeof d !== "object" || typeof d.protocol !== "string" || !/^oadp\/1(\.\d+)?$/.test(d.protocol))
    return { ok: false, reason: "not_oadp" };
  if (!d.hub || typeof d.hub.name !== "string" || d.hub.name.length === 0 || typeof d.hub.url !== "string")
    return { ok: false, reason: "missing_hub" };
  try {
    new URL(d.hub.url);
  } catch {
    return { ok: false, reason: "missing_hub" };
  }
  return { ok: true, name: d.hub.name.slice(0, 200) };
}

/** Claims up to `batch` due domains (last_scan_at = the claim time: the lease's identity). */
async function claimDue(
  deps: Deps,
  now: Date,
  intervalMs: number,
  batch: number,
): Promise<{ domain: string; failures: number }[]> {
  return deps.database.db.transaction(async (tx) => {
    const due = await tx
      .select({ domain: oadpDomains.domain, failures: oadpDomains.failures })
      .from(oadpDomains)
      .where(lte(oadpDomains.nextScanAt, now))
      .orderBy(asc(oadpDomains.nextScanAt))
      .limit(batch)
      .for("update", { skipLocked: true });
    for (const { domain } of due) {
      await tx
        .update(oadpDomains)
        .set({ lastScanAt: now, nextScanAt: new Date(now.getTime() + intervalMs) })
        .where(eq(oadpDomains.domain, domain));
    }
    return due;
  });
}

/** Runs due verifications (no-op unless federation and verification are both enabled). */
export async function verifyReportedHubs(deps: Deps, batch = BATCH): Promise<number> {
  const { federationEnabled, federationVerify } = deps.config.oadp;
  if (!federationEnabled || !federationVerify) return 0;
  const claimedAt = deps.clock.now();
  const intervalMs = OADP_SCAN_INTERVAL_MINUTES * 60_000;
  const domains = await claimDue(deps, claimedAt, intervalMs, batch);
  for (const { domain, failures } of domains) {
    const fetched = await deps.fetcher.fetch(`https://${domain}${AGENT_PROTOCOL_PATH}`, {
      maxBytes: MAX_DOCUMENT_BYTES,
      headers: { accept: "application/json" },
    });
    const verdict = checkAgentProtocolDocument(fetched);
    const now = deps.clock.now();
    const mine = and(eq(oadpDomains.domain, domain), eq(oadpDomains.lastScanAt, claimedAt));
    if (verdict.ok) {
      // Re-verify after the hub TTL, and never sooner than the scan interval.
      const next = new Date(now.getTime() + Math.max(OADP_HUB_TTL_HOURS * 3_600_000, intervalMs));
      await deps.database.db
        .update(oadpDomains)
        .set({
          status: "verified",
          hubName: verdict.name,
          verifiedAt: now,
          lastError: null,
          failures: 0,
          nextScanAt: next,
        })
        .where(mine);
    } else {
      // A verified hub that fails is stale (excluded until re-verified); back off exponentially.
      await deps.database.db
        .update(oadpDomains)
        .set({
          status: sql`case when ${oadpDomains.status} = 'verified' then 'stale' else ${oadpDomains.status} end`,
          lastError: verdict.reason.slice(0, 200),
          failures: sql`${oadpDomains.failures} + 1`,
          nextScanAt: new Date(now.getTime() + Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** Math.min(failures, 10))),
        })
        .where(mine);
    }
  }
  return domains.length;
}
