import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { SITEMAP_INDEX_TTL_MS } from "../../src/features/feeds/feeds.service";
import {
  SITEMAP_CHUNK,
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_URLS,
  sitemapChunkList,
} from "../../src/features/feeds/sitemap.service";
import { PUBLIC_URL } from "../helpers/app";
import { useTestApp } from "../helpers/suite-app";

// Sitemaps that fit the protocol (sitemaps.org): a sitemap index whose files hold at
// most 50 000 URLs and 50 MB each, every public mission in exactly one file, cut incrementally
// (earlier files keep their URLs when missions are added). The full-size check — a million
// missions, 23 files — runs in `npm run bench:scale`; here the same code with small chunks.

const t = useTestApp();

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows);

/** n missions straight in SQL, one per second from `fromSec`; every 4th still pending_escrow. */
async function insertMissions(fromSec: number, n: number) {
  await t.deps.database.db.execute(sql`
    insert into missions (id, creator, title, description, reward_asset, reward_amount, reward_chain, spam_fee, verification_type,
      verification_params, deadline, status, phase, created_at, updated_at)
    select 'mis_' || lpad(to_hex(${fromSec} + i), 26, '0'), '0x' || repeat('a', 40), 't', 'd', 'USDC', 1, 'ledger', 0, 'creator_judges', '{}',
      now() + interval '7 days', case when i % 4 = 0 then 'pending_escrow' else 'open' end, 'accepting_submissions',
      timestamptz '2026-06-01' + (${fromSec} + i) * interval '1 second', timestamptz '2026-06-01' + (${fromSec} + i) * interval '1 second'
    from generate_series(1, ${n}) i`);
}

const lastmods = new Map<string, string | undefined>();

async function readAll() {
  t.clock.advance(SITEMAP_INDEX_TTL_MS);
  const index = await t.call("GET", "/sitemap.xml");
  expect(XMLValidator.validate(index.text)).toBe(true);
  const files = [
    ...index.text.matchAll(/<sitemap><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/sitemap>/g),
  ].map((m) => ({ loc: m[1]!, lastmod: m[2] }));
  expect(files.length).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
  const byFile = new Map<string, string[]>();
  for (const f of files) {
    const r = await t.call("GET", f.loc.slice(PUBLIC_URL.length));
    expect(r.status, f.loc).toBe(200);
    expect(XMLValidator.validate(r.text)).toBe(true);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(SITEMAP_MAX_BYTES);
    const ids = [...r.text.matchAll(/\/m\/(mis_[0-9a-f]+)</g)].map((m) => m[1]!);
    if (f.loc.includes("/missions-")) {
      expect(f.lastmod, f.loc).toMatch(/^\d{4}-\d\d-\d\dT/);
      const newest = rowsOf<{ at: string }>(
        await t.deps.database.db.execute(
          sql`select to_char(max(updated_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at from missions where id = any(${`{${ids.join(",")}}`}::text[])`,
        ),
      )[0]!.at;
      expect(f.lastmod).toBe(newest);
    }
    byFile.set(f.loc, ids);
    lastmods.set(f.loc, f.lastmod);
  }
  return byFile;
}

describe("sitemap index", () => {
  it("the limits are the protocol's, and the cut leaves room under them", () => {
    expect(SITEMAP_MAX_URLS).toBe(50_000);
    expect(SITEMAP_MAX_BYTES).toBe(50 * 1024 * 1024);
    expect(SITEMAP_CHUNK).toBeLessThan(SITEMAP_MAX_URLS);
  });

  it("cuts files incrementally: every public mission in exactly one file, earlier files unchanged by later missions", async () => {
    await insertMissions(0, 40);
    await sitemapChunkList(t.deps, 10); // 30 public → files of 10
    const first = await readAll();
    const publicIds = rowsOf<{ id: string }>(
      await t.deps.database.db.execute(sql`select id from missions where status <> 'pending_escrow' order by id`),
    ).map((r) => r.id);
    const listed = [...first.values()].flat();
    expect(listed.sort()).toEqual(publicIds); // each once, no pending_escrow
    const missionFiles = [...first.keys()].filter((k) => k.includes("/missions-"));
    expect(missionFiles.length).toBe(3);
    for (const f of missionFiles) expect(first.get(f)!.length).toBeLessThanOrEqual(10);

    // A change to an old mission (in a closed file) moves that file's lastmod (checked in readAll).
    await t.deps.database.db.execute(
      sql`update missions set updated_at = timestamptz '2026-06-02', status = 'resolved' where id = ${first.get(missionFiles[0]!)![0]!}`,
    );
    await insertMissions(1000, 40); // later missions: the open file grows, new files are cut
    await sitemapChunkList(t.deps, 10);
    const second = await readAll();
    for (const f of missionFiles.slice(0, -1)) expect(second.get(f), f).toEqual(first.get(f)); // closed files keep their URLs
    expect(lastmods.get(missionFiles[0]!)).toBe("2026-06-02T00:00:00.000Z");
    expect([...second.values()].flat().length).toBe(60);
    expect(new Set([...second.values()].flat()).size).toBe(60);
    expect([...second.keys()].filter((k) => k.includes("/missions-")).length).toBe(6);
  });

  it("a crawler accepting br or gzip gets the memoised index compressed, the same bytes each time, and 304 for its ETag", async () => {
    await insertMissions(5000, 120);
    await sitemapChunkList(t.deps, 10);
    t.clock.advance(SITEMAP_INDEX_TTL_MS);
    const plain = await t.app.request("/sitemap.xml");
    const identity = Buffer.from(await plain.arrayBuffer());
    expect(identity.byteLength).toBeGreaterThanOrEqual(1024); // worth compressing (compression.ts MIN_BYTES)
    for (const [coding, inflate] of [
      ["br", brotliDecompressSync],
      ["gzip", gunzipSync],
    ] as const) {
      const get = (headers: Record<string, string> = {}) =>
        t.app.request("/sitemap.xml", { headers: { "accept-encoding": coding, ...headers } });
      const [a, b] = [await get(), await get()];
      expect(a.headers.get("content-encoding")).toBe(coding);
      const [ab, bb] = [Buffer.from(await a.arrayBuffer()), Buffer.from(await b.arrayBuffer())];
      expect(inflate(ab).equals(identity)).toBe(true);
      expect(bb.equals(ab)).toBe(true);
      // Another representation of the same document: the ETag weakened, as compression() does.
      expect(a.headers.get("etag")).toBe(`W/${plain.headers.get("etag")}`);
      expect(a.headers.get("vary")).toMatch(/Accept-Encoding/);
      const again = await get({ "if-none-match": a.headers.get("etag")! });
      expect(again.status).toBe(304);
    }
  });
});
