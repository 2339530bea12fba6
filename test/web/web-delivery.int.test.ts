import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { credit, missionBody, openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// docs/web.md "Delivery": compression, content-hashed immutable assets, icons, the split page
// script, page weights in bytes actually transferred, alternates that answer, cached pages with
// ETag/304. Byte bounds are deterministic (no timing).

const t = useTestApp();

const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.request(path, { headers: { accept: "text/html", ...headers } });
const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const decode = (res: Response, b: Uint8Array) => {
  const enc = res.headers.get("content-encoding");
  const raw = enc === "br" ? brotliDecompressSync(b) : enc === "gzip" ? gunzipSync(b) : Buffer.from(b);
  return raw.toString("utf8");
};

/** Bytes a browser asking for br transfers for a page: HTML, its stylesheets and its page script. */
async function pageWeight(path: string) {
  const br = { "accept-encoding": "br" };
  const res = await get(path, br);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-encoding"), path).toBe("br");
  const body = await bytes(res);
  const html = decode(res, body);
  const sub: string[] = [
    ...[...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]!),
  ];
  let total = body.byteLength;
  const parts: Record<string, number> = { html: body.byteLength };
  for (const p of sub) {
    const r = await get(p, br);
    expect(r.status, p).toBe(200);
    const n = (await bytes(r)).byteLength;
    parts[p] = n;
    total += n;
  }
  return { total, parts, html };
}

/** Text that compresses like prose, not like a repeated string: seeded pseudo-random words. */
let seed = 17;
function words(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let w = "";
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const len = 2 + (seed % 9);
    for (let k = 0; k < len; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      w += "etaoinshrdlucmfwypvbgkjqxz"[Math.floor((((seed >> 8) % 1000) ** 2 / 1000 ** 2) * 26)];
    }
    out.push(w);
  }
  return out.join(" ");
}

async function manyMissions(n: number, tag: string) {
  const creator = await signIn(t);
  await credit(t, creator.address, 100_000_000_000n);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, {
        title: words(30).slice(0, 200),
        description: words(800).slice(0, 5000),
        tags: [tag, ...Array.from({ length: 9 }, () => words(1).slice(0, 32))],
      }),
    });
    expect(r.status, r.text).toBe(201);
    ids.push(r.body.id);
  }
  return { creator, ids };
}

describe("compression", () => {
  it("br or gzip by Accept-Encoding q-values, with Vary; the bytes decode to the identity body", async () => {
    await manyMissions(5, "compress");
    const plain = await t.app.request("/missions?tag=compress");
    expect(plain.headers.get("content-encoding")).toBeNull();
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(2048);
    for (const [accept, coding] of [
      ["gzip, deflate, br", "br"],
      ["gzip;q=1, br;q=0.5", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["identity", null],
      ["*;q=0", null],
    ] as const) {
      const r = await t.app.request("/missions?tag=compress", { headers: { "accept-encoding": accept } });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-encoding"), accept).toBe(coding);
      expect(r.headers.get("vary")).toMatch(/Accept-Encoding/);
      const b = await bytes(r);
      if (coding) expect(b.byteLength).toBeLessThan(text.length / 3);
      expect(decode(r, b)).toBe(text);
    }
  });

  it("ETags stay valid across codings: the same weak validator, 304 on If-None-Match", async () => {
    const br = await t.app.request("/missions?tag=compress", { headers: { "accept-encoding": "br" } });
    const id = await t.app.request("/missions?tag=compress");
    const etag = br.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    expect(id.headers.get("etag")).toBe(etag);
    const again = await t.app.request("/missions?tag=compress", {
      headers: { "accept-encoding": "br", "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    expect((await bytes(again)).byteLength).toBe(0);
  });

  it("never: tiny bodies, already-compressed /client.tgz, errors keep their JSON", async () => {
    const tiny = await t.app.request("/health", { headers: { "accept-encoding": "br" } });
    expect(tiny.headers.get("content-encoding")).toBeNull();
    expect(await tiny.json()).toEqual({ status: "ok" });
    const tgz = await t.app.request("/client.tgz", { headers: { "accept-encoding": "br, gzip" } });
    expect(tgz.status).toBe(200);
    expect(tgz.headers.get("content-encoding")).toBeNull();
    const b = await bytes(tgz);
    expect([b[0], b[1]]).toEqual([0x1f, 0x8b]); // the gzip file itself, not re-encoded
  });
});

describe("assets", () => {
  it("every asset a page names is content-hashed and immutable; icons answer at their fixed names", async () => {
    const { mission } = await openMission(t);
    const html = await (await get(`/m/${mission.id}`)).text();
    const urls = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(3); // css, svg icon, page script
    // The touch icon is linked by its fixed name (drawn on first request, not at start).
    expect(html).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png"/>');
    for (const u of urls) {
      expect(u, u).toMatch(/-[0-9A-Za-z]{8,12}\.(css|js|svg|png)$/);
      const r = await get(u);
      expect(r.status, u).toBe(200);
      expect(r.headers.get("cache-control"), u).toBe("public, max-age=31536000, immutable");
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const ico = await bytes(await get("/favicon.ico"));
    expect([...ico.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // ICO header
    expect([...ico.subarray(22, 26)]).toEqual([0x89, 0x50, 0x4e, 0x47]); // its PNG image
    for (const p of ["/apple-touch-icon.png", "/apple-touch-icon-precomposed.png"]) {
      const r = await get(p);
      expect(r.headers.get("content-type")).toBe("image/png");
      const png = await bytes(r);
      expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
      expect(new DataView(png.buffer, png.byteOffset).getUint32(16)).toBe(180); // width
      expect(png.byteLength).toBeLessThan(4096);
    }
    expect((await get("/favicon.svg")).headers.get("content-type")).toBe("image/svg+xml");
    expect((await get("/assets/web-000000000000.css")).status).toBe(404);
  });

  it("the page script is small and signs nothing; viem is in a chunk only dynamically imported", async () => {
    const html = await (await get("/")).text();
    const src = /<script type="module" src="([^"]+)"/.exec(html)![1]!;
    const entry = await (await get(src)).text();
    expect(entry).not.toMatch(/\bimport\s*[{*\w][^(]*from/); // no static import: one request
    const chunk = /import\("\.\/(wallet-[\w]+\.js)"\)/.exec(entry)?.[1];
    expect(chunk).toBeDefined();
    expect(html).not.toContain(chunk!);
    const wallet = await get(`/assets/js/${chunk}`, { "accept-encoding": "br" });
    expect(wallet.status).toBe(200);
    expect(decode(wallet, await bytes(wallet))).toContain("eth_requestAccounts");
    expect(entry).not.toContain("eth_requestAccounts");
    const entryBr = await bytes(await get(src, { "accept-encoding": "br" }));
    expect(entryBr.byteLength).toBeLessThan(4 * 1024);
  });

  it("/docs alone loads Swagger UI, compressed", async () => {
    const board = await (await get("/")).text();
    expect(board).not.toContain("swagger");
    const docs = await (await get("/docs")).text();
    const js = /<script src="(\/assets\/swagger-[^"]+\.js)"/.exec(docs)![1]!;
    const r = await get(js, { "accept-encoding": "br" });
    expect(r.headers.get("content-encoding")).toBe("br");
    expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await bytes(r)).byteLength).toBeLessThan(500 * 1024);
  });
});

describe("page weight (br: HTML + CSS + page script)", () => {
  it("board of 50 long missions ≤ 60 KB; a mission page with 10 submissions ≤ 80 KB", async () => {
    const { creator, ids } = await manyMissions(50, "weight");
    const board = await pageWeight("/?tag=weight&limit=50");
    expect(board.html.match(/<li>/g)?.length).toBeGreaterThanOrEqual(50);
    expect(board.total, JSON.stringify(board.parts)).toBeLessThanOrEqual(60 * 1024);
    const id = ids[0]!;
    for (let i = 0; i < 10; i++) {
      const a = await signIn(t);
      const r = await t.call("POST", `/missions/${id}/submissions`, {
        token: a.token,
        body: { content: words(400) },
      });
      expect(r.status, r.text).toBe(201);
    }
    expect(creator.address).toMatch(/^0x/);
    const page = await pageWeight(`/m/${id}`);
    expect(page.total, JSON.stringify(page.parts)).toBeLessThanOrEqual(80 * 1024);
  });
});

describe("alternates", () => {
  it("every <link rel=alternate> of every page answers 200", async () => {
    const { mission } = await openMission(t, { tags: ["alt"] });
    const pages = [
      "/",
      "/?status=any",
      "/?status=any&tag=&asset=&reward_min=&sort=reward&q=",
      "/?status=resolved&tag=alt&limit=50",
      `/m/${mission.id}`,
      `/u/${mission.creator}`,
      "/ranking",
      "/status",
      "/docs",
    ];
    let checked = 0;
    for (const p of pages) {
      const html = await (await get(p)).text();
      const links = [...html.matchAll(/<link rel="alternate"[^>]*href="([^"]+)"/g)].map((m) =>
        m[1]!.replace(/&amp;/g, "&"),
      );
      expect(links.length, p).toBeGreaterThan(0);
      for (const l of links) {
        const r = await t.app.request(new URL(l, "http://oabp.test").pathname + new URL(l, "http://x").search);
        expect(r.status, `${p} → ${l}`).toBe(200);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(pages.length * 2);
    // The board's "any" status is every public status on the JSON list and the feeds.
    const any = await (await get("/?status=any")).text();
    expect(any).toContain('href="/missions?status=open,escrowed,resolved,voided"');
  });
});

describe("cached pages", () => {
  it("anonymous board and mission page: one rendering shared, ETag and 304, a new one after a write", async () => {
    const { mission } = await openMission(t, { tags: ["cached"] });
    const first = await get(`/m/${mission.id}`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"/);
    const html = await first.text();
    const csp = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(html).toContain(`nonce="${nonce}"`);

    const misses = t.deps.missionLists.misses;
    const second = await get(`/m/${mission.id}`);
    expect(t.deps.missionLists.misses).toBe(misses); // served from the cache: no rendering, no query
    expect(second.headers.get("etag")).toBe(etag);
    expect(await second.text()).toBe(html);

    const notModified = await get(`/m/${mission.id}`, { "if-none-match": etag, "accept-encoding": "br" });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("content-security-policy")).toBe(csp);

    const solver = await signIn(t);
    const sub = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: solver.token,
      body: { content: "answer" },
    });
    expect(sub.status).toBe(201);
    const after = await get(`/m/${mission.id}`, { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(await after.text()).toContain("Submissions (1)");

    const board = await get("/?tag=cached");
    const boardTag = board.headers.get("etag")!;
    expect((await get("/?tag=cached", { "if-none-match": boardTag })).status).toBe(304);
  });

  it("signed-in readers get their own rendering, never the shared one", async () => {
    const { mission, creator } = await openMission(t);
    const cookieRes = await t.call("GET", `/m/${mission.id}`, {
      token: creator.token,
      headers: { accept: "text/html" },
    });
    expect(cookieRes.status).toBe(200);
    expect(cookieRes.headers.get("etag")).toBeNull();
  });
});
