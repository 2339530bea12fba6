import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestApp, PUBLIC_URL, type TestApp } from "../helpers/app";
import { openMission } from "../helpers/agents";
import { SITEMAP_INDEX_TTL_MS } from "../../src/features/feeds/feeds.service";

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  isArray: (name, jpath) =>
    ["item", "entry", "category", "url"].includes(name) ||
    ["feed.author", "feed.entry.author", "feed.entry.link", "rss.channel.item.author"].includes(String(jpath)),
});

function parse(text: string) {
  expect(XMLValidator.validate(text)).toBe(true);
  return parser.parse(text);
}

const rssItems = (text: string): any[] => parse(text).rss.channel.item ?? [];
const atomEntries = (text: string): any[] => parse(text).feed.entry ?? [];
const decodeHtml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

let t: TestApp;
const HOSTILE = "Bad\u0001\u0007\u001B title ]]> one ]]> two <b>&amp; 🚀 שלום \u202Eevil";
const HOSTILE_CLEAN = "Bad title ]]> one ]]> two <b>&amp; 🚀 שלום \u202Eevil";
let oracleish: any, hostile: any, voided: any, newest: any;

beforeAll(async () => {
  t = await makeTestApp();
  oracleish = (
    await openMission(t, {
      title: "FVM task",
      tags: ["alpha", "beta"],
      verification: { type: "first_valid_match", params: { expected: "x" } },
    })
  ).mission;
  t.clock.advance(1000);
  hostile = (
    await openMission(t, {
      title: HOSTILE,
      description: "desc ]]> with \u0002 control and <script>x</script>",
      tags: ["alpha"],
    })
  ).mission;
  t.clock.advance(1000);
  const v = await openMission(t, { title: "Will be voided", tags: ["alpha"] });
  voided = v.mission;
  expect((await t.call("POST", `/missions/${voided.id}/void`, { token: v.creator.token })).status).toBe(200);
  t.clock.advance(1000);
  newest = (await openMission(t, { title: "Newest", tags: ["gamma"] })).mission;
});
afterAll(async () => t?.close());

describe("RSS 2.0", () => {
  it.each(["/feed.xml", "/missions.rss", "/api/feed.xml"])(
    "%s lists open missions newest first with their facts",
    async (path) => {
      const r = await t.call("GET", path);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
      const doc = parse(r.text);
      expect(doc.rss["@_version"]).toBe("2.0");
      const items = doc.rss.channel.item as any[];
      expect(items.map((i) => i.link)).toEqual([newest.view_url, hostile.view_url, oracleish.view_url]);
      const peer = items[2];
      expect(peer.title).toBe("FVM task");
      expect(peer.link).toBe(`${PUBLIC_URL}/m/${oracleish.id}`);
      expect(peer.category.map((c: any) => c["#text"])).toEqual(["alpha", "beta", "first_valid_match"]);
      expect(peer.author).toEqual([oracleish.creator]);
      expect(new Date(peer.pubDate).toISOString()).toBe(oracleish.created_at);
      const facts = peer["oabp:mission"];
      expect(facts["oabp:reward_amount"]).toBe(oracleish.reward.amount);
      expect(facts["oabp:reward_asset"]).toBe("USDC");
      expect(facts["oabp:deadline"]).toBe(oracleish.deadline);
      expect(facts["oabp:verification_type"]).toBe("first_valid_match");
      expect(peer.description).toContain(`Reward: ${oracleish.reward.amount} USDC`);
      expect(peer.description).toContain(`Deadline: ${oracleish.deadline}`);
    },
  );

  it("survives hostile text: control characters stripped, several ]]>, emoji and RTL kept", async () => {
    const items = rssItems((await t.call("GET", "/feed.xml")).text);
    const h = items.find((i) => i.link === hostile.view_url);
    expect(h.title).toBe(HOSTILE_CLEAN);
    expect(h.description).not.toMatch(/[\u0000-\u0008]/);
    expect(h.description).toContain("desc ]]&gt; with  control and &lt;script&gt;");
  });

  it("filters with the GET /missions query", async () => {
    const byTag = rssItems((await t.call("GET", "/feed.xml?tag=alpha")).text);
    expect(byTag.map((i) => i.link)).toEqual([hostile.view_url, oracleish.view_url]);
    const byType = rssItems((await t.call("GET", "/feed.xml?verification_type=first_valid_match")).text);
    expect(byType.map((i) => i.link)).toEqual([oracleish.view_url]);
    const voidedFeed = rssItems((await t.call("GET", "/feed.xml?status=voided")).text);
    expect(voidedFeed.map((i) => i.link)).toEqual([voided.view_url]);
    expect(rssItems((await t.call("GET", "/feed.xml?limit=1")).text)).toHaveLength(1);
    expect((await t.call("GET", "/feed.xml?verification_type=nope")).status).toBe(400);
  });
});

describe("Atom", () => {
  it("is an RFC 4287 feed with authors and categories carrying a term", async () => {
    const r = await t.call("GET", "/feed.atom");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const feed = parse(r.text).feed;
    expect(feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(feed.id).toBeTruthy();
    expect(feed.updated).toBeTruthy();
    expect(feed.author[0].name).toBeTruthy();
    const entries = feed.entry as any[];
    expect(entries.map((e) => e.link[0]["@_href"])).toEqual([newest.view_url, hostile.view_url, oracleish.view_url]);
    for (const e of entries) {
      expect(e.id).toBeTruthy();
      expect(e.updated).toBeTruthy();
      expect(e.author[0].name).toMatch(/^0x[0-9a-f]{40}$/);
      for (const c of e.category) expect(c["@_term"]).toBeTruthy();
    }
    const peer = entries[2];
    expect(decodeHtml(peer.title["#text"])).toBe("FVM task");
    expect(peer.category.map((c: any) => c["@_term"])).toEqual(["alpha", "beta", "first_valid_match"]);
    expect(peer.category[2]["@_scheme"]).toBe(`${PUBLIC_URL}/missions?verification_type=`);
    expect(peer.summary["#text"]).toContain(`Reward: ${oracleish.reward.amount} USDC`);
    expect(peer.summary["#text"]).toContain("Verification: first_valid_match");
    const h = entries[1];
    expect(decodeHtml(h.title["#text"])).toBe(HOSTILE_CLEAN);
  });

  it("filters by tag and verification type", async () => {
    expect(atomEntries((await t.call("GET", "/feed.atom?tag=gamma")).text).map((e) => e.link[0]["@_href"])).toEqual([
      newest.view_url,
    ]);
    expect(atomEntries((await t.call("GET", "/feed.atom?verification_type=first_valid_match")).text)).toHaveLength(1);
  });
});

describe("revalidation", () => {
  it("answers 304 to If-None-Match and If-Modified-Since, and a new mission changes the ETag", async () => {
    for (const path of ["/feed.xml", "/feed.atom", "/sitemap.xml"]) {
      const first = await t.call("GET", path);
      const etag = first.headers.get("etag")!;
      const lastModified = first.headers.get("last-modified")!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);
      const again = await t.call("GET", path, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect((await t.call("GET", path, { headers: { "if-none-match": `"other", W/${etag}` } })).status).toBe(304);
      expect((await t.call("GET", path, { headers: { "if-modified-since": lastModified } })).status).toBe(304);
      const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
      expect((await t.call("GET", path, { headers: { "if-modified-since": earlier } })).status).toBe(200);
      // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
      expect(
        (await t.call("GET", path, { headers: { "if-none-match": '"stale"', "if-modified-since": lastModified } }))
          .status,
      ).toBe(200);
    }
    const before = await t.call("GET", "/feed.xml");
    t.clock.advance(2000);
    const added = (await openMission(t, { title: "Fresh" })).mission;
    const after = await t.call("GET", "/feed.xml", { headers: { "if-none-match": before.headers.get("etag")! } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect(rssItems(after.text)[0].link).toBe(added.view_url);
    const since = await t.call("GET", "/feed.xml", {
      headers: { "if-modified-since": before.headers.get("last-modified")! },
    });
    expect(since.status).toBe(200);
  });
});

describe("sitemap", () => {
  it("/sitemap.xml is a sitemap index; its files list the static entry points and public mission pages", async () => {
    t.clock.advance(SITEMAP_INDEX_TTL_MS); // an instance rebuilds its index at most once per TTL
    const r = await t.call("GET", "/sitemap.xml");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const index = parse(r.text).sitemapindex;
    expect(index["@_xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const files = [index.sitemap].flat() as any[];
    expect(files.map((f) => f.loc)).toEqual([
      `${PUBLIC_URL}/sitemaps/static.xml`,
      `${PUBLIC_URL}/sitemaps/missions-0.xml`,
    ]);

    const urlsOf = async (loc: string) => {
      const f = await t.call("GET", loc.slice(PUBLIC_URL.length));
      expect(f.status, loc).toBe(200);
      expect(f.headers.get("content-type")).toBe("application/xml; charset=utf-8");
      const set = parse(f.text).urlset;
      expect(set["@_xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
      return (set.url ?? []) as any[];
    };
    const statics = (await urlsOf(files[0].loc)).map((u) => u.loc);
    for (const page of ["/", "/ranking", "/status", "/docs"]) expect(statics).toContain(`${PUBLIC_URL}${page}`); // the web board
    const urls = await urlsOf(files[1].loc);
    const locs = urls.map((u) => u.loc);
    // Creation order (stable files: new missions land at the end of the open file).
    const i = (m: any) => locs.indexOf(m.view_url);
    for (const m of [newest, voided, hostile, oracleish]) expect(i(m)).toBeGreaterThanOrEqual(0);
    expect(i(oracleish)).toBeLessThan(i(hostile));
    expect(i(hostile)).toBeLessThan(i(voided));
    expect(i(voided)).toBeLessThan(i(newest));
    expect(urls.find((u) => u.loc === newest.view_url).lastmod).toBe(newest.updated_at);
    expect(files[1].lastmod).toBe(
      urls
        .map((u) => u.lastmod as string)
        .sort()
        .at(-1),
    ); // the file's latest change
    for (const bad of ["/sitemaps/missions-9.xml", "/sitemaps/nope.xml", "/sitemaps/missions-1e3.xml"])
      expect((await t.call("GET", bad)).status, bad).toBe(404);
  });
});

describe("RFC 5005 paged feeds", () => {
  /** The `first` / `next` link hrefs of a feed document (Atom `link`, RSS `atom:link`). */
  function pagingLinks(text: string, format: "rss" | "atom") {
    const doc = parse(text);
    const raw = format === "rss" ? doc.rss.channel["atom:link"] : doc.feed.link;
    const links: any[] = Array.isArray(raw) ? raw : [raw];
    const href = (rel: string) => links.find((l) => l["@_rel"] === rel)?.["@_href"] as string | undefined;
    return { first: href("first"), next: href("next") };
  }

  for (const [path, format] of [
    ["/feed.atom", "atom"],
    ["/feed.xml", "rss"],
  ] as const) {
    it(`${path}: following rel="next" from the first page walks every open mission once, newest first`, async () => {
      const seen: string[] = [];
      let url: string | undefined = `${path}?limit=1&tag=alpha&utm_source=%3Cx%3E`;
      let first: string | undefined;
      for (let pages = 0; url && pages < 10; pages++) {
        const res = await t.call("GET", url);
        expect(res.status).toBe(200);
        const text = res.text;
        const links = pagingLinks(text, format);
        first ??= links.first;
        expect(links.first).toBe(first);
        const items = format === "rss" ? rssItems(text) : atomEntries(text);
        for (const i of items) seen.push(format === "rss" ? i.link : i.id);
        url = links.next?.slice(PUBLIC_URL.length);
      }
      // Tolerated tracking parameters never reach the links; the list's own do, and `first` has no cursor.
      expect(first).toBe(`${PUBLIC_URL}${path}?limit=1&tag=alpha`);
      expect(seen).toEqual([hostile.view_url, oracleish.view_url]);
    });
  }

  it("the last page has no next link", async () => {
    const text = (await t.call("GET", "/feed.atom?tag=gamma")).text;
    expect(pagingLinks(text, "atom")).toEqual({ first: `${PUBLIC_URL}/feed.atom?tag=gamma`, next: undefined });
  });
});
