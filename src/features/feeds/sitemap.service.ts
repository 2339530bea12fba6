import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import { missionViewPath } from "../../lib/view-paths";
import { publicMissions } from "../../db/mission-visibility";
import { missions, sitemapChunks } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { renderSitemap, renderSitemapIndex } from "./feeds.render";

// sitemaps.org protocol limits: a sitemap (or sitemap index) file holds at most 50 000 URLs and
// 50 MB (52 428 800 bytes) uncompressed. /sitemap.xml is a sitemap index; the URLs are in
// /sitemaps/static.xml and /sitemaps/missions-{k}.xml.
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 52_428_800;
/**
 * Missions per chunk when it is cut. Below the 50 000 limit on purpose: a mission created inside
 * a closed chunk's id range while still pending_escrow joins that file when its deposit lands, so
 * the margin absorbs late openings; the render caps at SITEMAP_MAX_URLS whatever happens.
 */
export const SITEMAP_CHUNK = 45_000;
/** Chunks cut per index build: a backlog (first build at a million missions) spreads over builds. */
const MAX_CUTS_PER_BUILD = 40;
/** Static entry points (paths under the public URL). */
// The web board's HTML pages: a sitemap is for crawlers of pages; the JSON, feeds and
// OpenAPI entry points are announced by the manifest, robots.txt and <link rel="alternate">.
const SITEMAP_STATIC = ["/", "/ranking", "/status", "/docs"];

const isPublic = publicMissions;

/**
 * The chunk table, extended while its open (last) chunk holds more than SITEMAP_CHUNK public
 * missions. Incremental: each cut reads one keyset step of SITEMAP_CHUNK index entries past the
 * open chunk's start, never the whole table. Safe on several instances: the cut is the same row
 * for all, and `on conflict do nothing` keeps the first.
 */
export async function sitemapChunkList(
  deps: Deps,
  chunkSize = SITEMAP_CHUNK,
): Promise<{ k: number; startId: string; lastmod: Date | null }[]> {
  const db = deps.database.db;
  await db.insert(sitemapChunks).values({ k: 0, startId: "" }).onConflictDoNothing();
  let chunks = await db.select().from(sitemapChunks).orderBy(asc(sitemapChunks.k));
  for (let cut = 0; cut < MAX_CUTS_PER_BUILD; cut++) {
    const open = chunks[chunks.length - 1]!;
    const [next] = await db
      .select({ id: missions.id })
      .from(missions)
      .where(and(isPublic, gte(missions.id, open.startId)))
      .orderBy(asc(missions.id))
      .offset(chunkSize)
      .limit(1);
    if (!next) break;
    // Close the chunk: its lastmod is read once now, then kept by the missions_sitemap_lastmod
    // trigger. (A change committed while this runs, before the row is closed, is not counted
    // until that mission's next change: a lastmod can lag, never lead.)
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        update ${sitemapChunks} set lastmod = coalesce((
          select max(${missions.updatedAt}) from ${missions}
          where ${missions.status} <> 'pending_escrow' and ${missions.hiddenAt} is null and ${missions.id} >= ${open.startId} and ${missions.id} < ${next.id}), now())
        where ${sitemapChunks.k} = ${open.k} and ${sitemapChunks.lastmod} is null`);
      await tx
        .insert(sitemapChunks)
        .values({ k: open.k + 1, startId: next.id })
        .onConflictDoNothing();
    });
    chunks = await db.select().from(sitemapChunks).orderBy(asc(sitemapChunks.k));
  }
  return chunks;
}

const rangeOf = (chunks: { k: number; startId: string }[], k: number) => {
  const i = chunks.findIndex((c) => c.k === k);
  if (i < 0) return undefined;
  const end = chunks[i + 1]?.startId;
  return and(isPublic, gte(missions.id, chunks[i]!.startId), ...(end ? [lt(missions.id, end)] : []));
};

/**
 * The sitemap index: the static file, then one file per chunk with its lastmod (latest
 * updated_at): stored for closed chunks, read live for the open one — at most one chunk of rows,
 * whatever the number of missions.
 */
export async function renderIndex(deps: Deps): Promise<string> {
  const base = deps.config.publicUrl;
  const chunks = await sitemapChunkList(deps);
  const files: { loc: string; lastmod?: Date }[] = [{ loc: `${base}/sitemaps/static.xml` }];
  for (const c of chunks) {
    if (c.lastmod) {
      files.push({ loc: `${base}/sitemaps/missions-${c.k}.xml`, lastmod: c.lastmod });
      continue;
    }
    const [m] = await deps.database.db
      .select({
        at: sql<string | null>`to_char(max(${missions.updatedAt}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      })
      .from(missions)
      .where(rangeOf(chunks, c.k));
    if (!m?.at) continue; // an empty open chunk is not listed
    files.push({ loc: `${base}/sitemaps/missions-${c.k}.xml`, lastmod: new Date(m.at) });
  }
  return renderSitemapIndex(files);
}

/** One chunk's file (null: no such chunk), mission pages in creation order, at most 50 000. */
export async function renderChunk(deps: Deps, k: number): Promise<string | null> {
  const base = deps.config.publicUrl;
  const chunks = await deps.database.db.select().from(sitemapChunks).orderBy(asc(sitemapChunks.k));
  const where = rangeOf(chunks, k);
  if (!where) return null;
  const rows = await deps.database.db
    .select({ id: missions.id, updatedAt: missions.updatedAt })
    .from(missions)
    .where(where)
    .orderBy(asc(missions.id))
    .limit(SITEMAP_MAX_URLS);
  // The same URL missionToWire gives as view_url.
  return renderSitemap(
    rows.map((r) => ({ loc: `${base}${missionViewPath(r.id)}` /* = view_url */, lastmod: r.updatedAt })),
  );
}

export function renderStatic(deps: Deps): string {
  return renderSitemap(SITEMAP_STATIC.map((p) => ({ loc: `${deps.config.publicUrl}${p}` })));
}

export const chunkExists = async (deps: Deps, k: number) =>
  (await deps.database.db.select({ k: sitemapChunks.k }).from(sitemapChunks).where(eq(sitemapChunks.k, k))).length > 0;
