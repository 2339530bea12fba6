import { createHash } from "node:crypto";
import type { Deps } from "../../deps";
import type { Ctx } from "../../lib/context";
import { stableStringify } from "../../lib/idempotency";
import { type ListMissionsFilters, listFreshness, listMissions, ListMissionsQuery } from "../missions";
import { renderFeed, type FeedFormat } from "./feeds.render";
import { chunkExists, renderChunk, renderIndex, renderStatic } from "./sitemap.service";

/** A rendered document with its validators (RFC 9110 §8.8). */
export interface CachedDoc {
  /** Text, or UTF-8 bytes encoded once for a document served many times (the sitemap index). */
  body: string | Uint8Array;
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
async function cached(ctx: Ctx, key: string, render: () => Promise<string>): Promise<CachedDoc> {
  const { deps } = ctx;
  // Stored as "etag\nlast-modified\nbody": a hit slices the string instead of parsing a
  // multi-megabyte JSON document (a sitemap file is up to ~7 MB).
  const text = await deps.missionLists.get(
    key,
    async () => {
      const readAt = deps.clock.now();
      const body = await render();
      const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
      return `${etag}\n${readAt.toUTCString()}\n${body}`;
    },
    listFreshness(ctx),
  );
  const a = text.indexOf("\n");
  const b = text.indexOf("\n", a + 1);
  return { etag: text.slice(0, a), lastModified: text.slice(a + 1, b), body: text.slice(b + 1) };
}

/**
 * RSS 2.0 / Atom feed of missions, filtered like GET /missions (same schema, same service verb).
 * Without a `status` filter it lists open missions only.
 */
export function missionFeed(
  ctx: Ctx,
  {
    format,
    filters,
    path,
    query,
  }: {
    format: FeedFormat;
    filters: ListMissionsFilters;
    /** The feed's own path and query string, for the RFC 5005 paging links. */
    path: string;
    query: URLSearchParams;
  },
): Promise<CachedDoc> {
  const { deps } = ctx;
  const f: ListMissionsFilters = { ...filters, status: filters.status ?? ["open"] };
  // The links repeat only the list's own parameters, sorted; they are part of the cache key, so
  // an unknown parameter can neither reach the document nor pollute another request's copy.
  const known = new URLSearchParams(
    [...query]
      .filter(([k]) => k in ListMissionsQuery.shape && k !== "cursor")
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return cached(ctx, `feed:${format}:${path}:${known.toString()}:${stableStringify(f)}`, async () => {
    const { missions: list, next_cursor } = await listMissions(ctx, f);
    const page = (cursor: string | null) => {
      const q = new URLSearchParams(known);
      if (cursor) q.set("cursor", cursor);
      const qs = q.toString();
      return `${deps.config.publicUrl}${path}${qs ? `?${qs}` : ""}`;
    };
    return renderFeed(list, {
      format,
      publicUrl: deps.config.publicUrl,
      updated: deps.clock.now(),
      paging: { first: page(null), next: next_cursor ? page(next_cursor) : null },
    });
  });
}

/** How long an instance reuses its sitemap index before rebuilding it. */
export const SITEMAP_INDEX_TTL_MS = 60_000;
type MemoisedDoc = CachedDoc & { body: Uint8Array };
const indexMemo = new WeakMap<Deps, { at: number; doc: Promise<MemoisedDoc> }>();

/**
 * /sitemap.xml: the sitemap index (sitemap.service.ts). Its lastmods read every chunk's range
 * (O(missions / 45 000) range scans), so an instance rebuilds it at most once per
 * SITEMAP_INDEX_TTL_MS rather than after every mission change: a lastmod is at most a minute
 * late, which a crawler cannot tell from its own polling. Concurrent requests share one build.
 */
export function sitemap(ctx: Ctx): Promise<MemoisedDoc> {
  const { deps } = ctx;
  const now = ctx.now.getTime();
  const memo = indexMemo.get(deps);
  if (memo && now - memo.at < SITEMAP_INDEX_TTL_MS) return memo.doc;
  const doc = (async () => {
    const body = await renderIndex(deps);
    return {
      // Encoded once: every crawler hit then writes the same bytes, compressed once per coding
      // when it asks (feeds.index.ts sendMemoised; bench/README.md "Scale mode").
      body: Buffer.from(body, "utf8"),
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`,
      lastModified: new Date(now).toUTCString(),
    };
  })();
  indexMemo.set(deps, { at: now, doc });
  doc.catch(() => indexMemo.delete(deps));
  return doc;
}

/** /sitemaps/{file}: `static.xml` or `missions-{k}.xml`; null when there is no such file. */
export async function sitemapFile(ctx: Ctx, { file }: { file: string }): Promise<CachedDoc | null> {
  const { deps } = ctx;
  if (file === "static.xml") return cached(ctx, "sitemap:static", async () => renderStatic(deps));
  const m = /^missions-(\d{1,6})\.xml$/.exec(file);
  if (!m) return null;
  const k = Number(m[1]);
  if (!(await chunkExists(deps, k))) return null;
  return cached(ctx, `sitemap:${k}`, async () => (await renderChunk(deps, k)) ?? "");
}

/** RFC 9110 §13.1.2/§13.2.2: If-None-Match decides when present; else If-Modified-Since. */
export function notModified(
  doc: CachedDoc,
  { ifNoneMatch, ifModifiedSince }: { ifNoneMatch: string | undefined; ifModifiedSince: string | undefined },
): boolean {
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
