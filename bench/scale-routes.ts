// What bench/scale.ts reads: every public read route with parameters picked from the database at
// hand, and the sitemap index checked against the sitemaps.org limits at the large size.
import { sql } from "drizzle-orm";
import type { Database } from "../src/db/client";
import { rowsOf } from "./harness";

/** The mission id inside a list_deep path's base64url cursor. */
export function midIdOf(path: string): string {
  const cursor = new URL(path, "http://x").searchParams.get("cursor") ?? "";
  return Buffer.from(cursor, "base64url").toString("utf8");
}

/** Paths of every public read route, with parameters picked from this database. */
export async function routes(db: Database, n: number): Promise<Record<string, string>> {
  const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await db.db.execute(q))[0]!;
  const mid = await one<{ id: string }>(
    sql`select id from missions order by id desc offset ${Math.floor(n / 2)} limit 1`,
  );
  const busy = await one<{ reviewee: string }>(sql`select reviewee from review_stats order by count desc limit 1`);
  const creator = await one<{ creator: string }>(
    sql`select creator from missions group by creator order by count(*) desc limit 1`,
  );
  // The narrow filters are parameterised per database so that both sizes serve a full page: a
  // rare tag or a narrow range holding 3 missions at 10k and 50 at 1M would measure the size of
  // the answer, not whether the query scans. Each is the narrowest that still fills a page.
  const rare = await one<{ tag: string }>(
    sql`select tag from mission_tags group by tag having count(*) > 50 order by count(*) asc, tag limit 1`,
  );
  const page = 51;
  const amountAt = async (from: bigint) =>
    (
      await one<{ a: string }>(
        sql`select reward_amount::text as a from missions where reward_amount >= ${from.toString()}::numeric and status <> 'pending_escrow' and hidden_at is null order by reward_amount offset ${page - 1} limit 1`,
      )
    ).a;
  const narrowMax = await amountAt(250_000_000n);
  const assetMax = BigInt(narrowMax) > 251_000_000n ? narrowMax : "251000000";
  const deadline = await one<{ d: string; e: string }>(sql`
    with d0 as (select min(deadline) + interval '30 days' as d from missions)
    select to_char(d, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as d,
           to_char(greatest(d + interval '1 hour', (select deadline from missions where deadline >= d and status <> 'pending_escrow' and hidden_at is null order by deadline offset ${page - 1} limit 1)),
                   'YYYY-MM-DD"T"HH24:MI:SS"Z"') as e
      from d0`);
  const agentsMid = await one<{ rating: number; id: string; snap: string }>(sql`
    select rating, id, pg_current_snapshot()::text as snap from agents order by rating desc, id asc offset (select count(*) / 2 from agents) limit 1`);
  const cursor = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const agentsDeep = cursor({ a: Date.now() - 60_000, s: agentsMid.snap, r: agentsMid.rating, i: agentsMid.id });
  const d0 = new Date(deadline.d);
  const d1 = new Date(deadline.e).toISOString();
  return {
    get_mission: `/missions/${mid.id}`,
    list: "/missions?limit=50",
    list_deep: `/missions?limit=50&cursor=${Buffer.from(mid.id).toString("base64url")}`,
    status_resolved: "/missions?status=resolved&limit=50",
    creator: `/missions?creator=${creator.creator}&limit=50`,
    tag_rare: `/missions?tag=${rare.tag}&limit=50`,
    tag_common: "/missions?tag=agent&limit=50",
    reward_narrow: `/missions?reward_min=250000000&reward_max=${narrowMax}&limit=50`,
    reward_asset: `/missions?asset=USDC&reward_min=250000000&reward_max=${assetMax}&limit=50`,
    deadline_window: `/missions?deadline_after=${d0.toISOString()}&deadline_before=${d1}&limit=50`,
    type_status: "/missions?verification_type=oracle&status=open&limit=50",
    search: "/missions?status=open&q=backend",
    submissions: `/missions/${mid.id}/submissions`,
    leaderboard: "/leaderboard?limit=50",
    agents: "/agents?limit=50",
    agents_deep: `/agents?limit=50&cursor=${agentsDeep}`,
    agent_busy: `/agents/${busy.reviewee}`,
    agent_history: `/agents/${busy.reviewee}/history`,
    agent_reviews: `/agents/${busy.reviewee}/reviews`,
    feed: "/feed.xml",
    sitemap: "/sitemap.xml",
    // Discovery (ADP §4.3): a POST with its query as the body (`POST <path> <json>`).
    discover: `POST /adp/adp.discover ${JSON.stringify({ tags: ["nlp"], query: "agent deploy backend", limit: 10 })}`,
    candidates: `/missions/${mid.id}/candidates?limit=10`,
  };
}

/**
 * The sitemap index at the large size against the sitemaps.org limits: every file ≤ 50 000 URLs
 * and ≤ 50 MB, every public mission listed exactly once, every file with a lastmod.
 */
export async function checkSitemap(db: Database, base: string): Promise<string> {
  const index = await (await fetch(`${base}/sitemap.xml`, { signal: AbortSignal.timeout(120_000) })).text();
  const files = [...index.matchAll(/<sitemap><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/sitemap>/g)];
  if (files.length === 0 || files.length > 50_000) throw new Error(`sitemap index: ${files.length} files`);
  let urls = 0;
  let maxUrls = 0;
  let maxBytes = 0;
  const seen = new Set<string>();
  for (const [, loc, lastmod] of files) {
    const text = await (
      await fetch(`${base}${new URL(loc!).pathname}`, { signal: AbortSignal.timeout(120_000) })
    ).text();
    const n = (text.match(/<url>/g) ?? []).length;
    // Mission pages are the web board's /m/{id} (src/lib/view-paths.ts).
    for (const m of text.matchAll(/\/m\/(mis_[0-9A-Z]+)</g)) seen.add(m[1]!);
    const bytes = Buffer.byteLength(text);
    if (n > 50_000 || bytes > 52_428_800)
      throw new Error(`${loc}: ${n} URLs, ${bytes} bytes — over the sitemap limits`);
    if (loc!.includes("missions-") && !lastmod) throw new Error(`${loc}: no lastmod`);
    urls += n;
    maxUrls = Math.max(maxUrls, n);
    maxBytes = Math.max(maxBytes, bytes);
  }
  const [c] = rowsOf<{ n: number }>(
    await db.db.execute(sql`select count(*)::int as n from missions where status <> 'pending_escrow'`),
  );
  if (seen.size !== Number(c!.n)) throw new Error(`sitemap lists ${seen.size} distinct missions, ${c!.n} are public`);
  return `sitemap index: ${files.length} files, ${urls} URLs, every public mission once (${seen.size}); largest file ${maxUrls} URLs, ${(maxBytes / 1e6).toFixed(1)} MB — within 50 000 / 50 MB`;
}
