import { createHash } from "node:crypto";
import { desc, ne } from "drizzle-orm";
import { missions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { stableStringify } from "../../lib/idempotency";
import { missionViewPath } from "../web/web.paths";
import type { ListMissionsFilters } from "../missions/missions.schemas";
import { listMissions } from "../missions/missions.service";
import { renderFeed, renderSitemap, type FeedFormat } from "./feeds.render";

/** sitemaps.org: at most 50 000 URLs per sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;
/** Static entries listed first in the sitemap: the web board's HTML pages (issue 17), paths under the public URL. */
export const SITEMAP_STATIC = ["/", "/ranking", "/status", "/docs"];

/** A rendered document with its validators (RFC 9110 §8.8). */
export interface CachedDoc {
  body: string;
  etag: string;
  /** HTTP-date: when this document's content was read, so at or after the last change in it. */
  lastModified: string;
}

/**
 * Feeds share the mission-list cache under their own key prefix: it is cleared on every
 * committed mission change (missions.cache.ts), which is exactly when a feed can change.
 * The body, ETag and Last-Modified are stored together so a revalidation costs no hashing.
 * Last-Modified is taken BEFORE the read: a document read from rows older than a write is
 * always stamped before that write, so If-Modified-Since never hides it (to the second: the
 * ETag is the exact validator and wins when both are sent).
 */
async function cached(deps: Deps, key: string, render: () => Promise<string>): Promise<CachedDoc> {
  const text = await deps.missionLists.get(key, async () => {
    const readAt = deps.clock.now();
    const body = await render();
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
    return JSON.stringify({ body, etag, lastModified: readAt.toUTCString() } satisfies CachedDoc);
  });
  return JSON.parse(text) as CachedDoc;
}

/**
 * RSS 2.0 / Atom feed of missions, filtered like GET /missions (same schema, same service verb).
 * Without a `status` filter it lists open missions only.
 */
export function missionFeed(deps: Deps, format: FeedFormat, filters: ListMissionsFilters): Promise<CachedDoc> {
  const f: ListMissionsFilters = { ...filters, status: filters.status ?? ["open"] };
  return cached(deps, `feed:${format}:${stableStringify(f)}`, async () => {
    const { missions: list } = await listMissions(deps, f);
    return renderFeed(format, list, { publicUrl: deps.config.publicUrl, updated: deps.clock.now() });
  });
}

/** sitemap.xml: static entry points, then public mission pages newest first, bounded. */
export function sitemap(deps: Deps): Promise<CachedDoc> {
  return cached(deps, "sitemap", async () => {
    const base = deps.config.publicUrl;
    const rows = await deps.database.db
      .select({ id: missions.id, updatedAt: missions.updatedAt })
      .from(missions)
      .where(ne(missions.status, "pending_escrow"))
      .orderBy(desc(missions.id))
      .limit(SITEMAP_MAX_URLS - SITEMAP_STATIC.length);
    return renderSitemap([
      ...SITEMAP_STATIC.map((p) => ({ loc: `${base}${p}` })),
      // The same URL missionToWire gives as view_url.
      ...rows.map((r) => ({ loc: `${base}${missionViewPath(r.id)}`, lastmod: r.updatedAt })),
    ]);
  });
}

/** RFC 9110 §13.1.2/§13.2.2: If-None-Match decides when present; else If-Modified-Since. */
export function notModified(doc: CachedDoc, ifNoneMatch: string | undefined, ifModifiedSince: string | undefined): boolean {
  if (ifNoneMatch !== undefined) {
    const tags = ifNoneMatch.split(",").map((t) => t.trim().replace(/^W\//, ""));
    return tags.includes("*") || tags.includes(doc.etag);
  }
  if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Date.parse(doc.lastModified) <= since;
  }
  return false;
}
