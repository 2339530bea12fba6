import { describe, expect, it } from "vitest";
import { XMLParser } from "fast-xml-parser";
import { darkAccent } from "../../src/features/web/web.brand";
import { csrfTokenFor } from "../../src/http/session-cookie";
import { makeTestApp, PUBLIC_URL } from "../helpers/app";
import { credit, missionBody, signIn, siweMessageFor, newAccount, openMission } from "../helpers/agents";
import { submitAs } from "../helpers/judging";
import { useTestApp } from "../helpers/suite-app";

// The pages over HTTP (no browser): security headers, discovery links that resolve to
// HTML pages carrying canonical/OpenGraph/JSON-LD, the cookie session with CSRF (the page budget: web-delivery.int.test.ts).

const t = useTestApp();

const html = async (path: string, headers: Record<string, string> = {}) => {
  const res = await t.app.request(path, { headers: { accept: "text/html", ...headers } });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

function jsonLdOf(page: string): any {
  const m = /<script type="application\/ld\+json" nonce="[^"]+">([\s\S]*?)<\/script>/.exec(page);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}

describe("pages", () => {
  it("every page is HTML with a nonce CSP, no framing, nosniff, canonical and OpenGraph", async () => {
    const { mission } = await openMission(t);
    for (const path of [
      "/",
      `/m/${mission.id}`,
      `/u/${mission.creator}`,
      "/ranking",
      "/status",
      "/docs",
      "/me",
      "/post",
    ]) {
      const r = await html(path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^text\/html/);
      const csp = r.headers.get("content-security-policy")!;
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain("unsafe-eval");
      if (path !== "/docs") expect(csp).not.toContain("unsafe-inline");
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      // Every script element carries this response's nonce.
      for (const tag of r.text.match(/<script\b[^>]*>/g) ?? []) expect(tag, path).toContain(`nonce="${nonce}"`);
      expect(r.text).toContain(`<link rel="canonical" href="${PUBLIC_URL}${path}"/>`);
      expect(r.text).toMatch(/<meta property="og:title" content="[^"]+"\/>/);
      expect(r.text).toContain('<meta name="agent-protocol" content="oadp/1.0">');
    }
  });

  it("JSON routes keep answering JSON to browsers; / answers JSON clients with the JSON 404", async () => {
    for (const accept of ["text/html", "*/*", "text/html,application/xhtml+xml,*/*;q=0.8"]) {
      const r = await t.app.request("/missions", { headers: { accept } });
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    }
    const root = await t.call("GET", "/", { headers: { accept: "application/json" } });
    expect(root.status).toBe(404);
  });

  it("view_url, sitemap and feed links resolve to HTML pages with canonical, OpenGraph and JSON-LD", async () => {
    const { mission } = await openMission(t, { title: "Sitemap </script><b>check</b>", tags: ["sitemap"] });
    expect(mission.view_url).toBe(`${PUBLIC_URL}/m/${mission.id}`);
    const xml = new XMLParser({ ignoreAttributes: false });
    // /sitemap.xml is a sitemap index: the mission pages are in its missions-{k} files.
    const files = [xml.parse((await t.call("GET", "/sitemap.xml")).text).sitemapindex.sitemap].flat() as any[];
    const sitemap: any[] = [];
    for (const f of files)
      sitemap.push(...[xml.parse((await t.call("GET", f.loc.slice(PUBLIC_URL.length))).text).urlset.url ?? []].flat());
    const rss = xml.parse((await t.call("GET", "/feed.xml?tag=sitemap")).text).rss.channel.item;
    const atom = xml.parse((await t.call("GET", "/feed.atom?tag=sitemap")).text).feed.entry;
    const links = [
      mission.view_url,
      sitemap.find((u) => u.loc.endsWith(mission.id)).loc,
      rss.link,
      atom.link["@_href"],
    ];
    for (const link of links) {
      expect(link).toBe(mission.view_url);
      const r = await html(new URL(link).pathname);
      expect(r.status).toBe(200);
      expect(r.text).toContain(`<link rel="canonical" href="${mission.view_url}"/>`);
      expect(r.text).toContain('<meta property="og:type" content="article"/>');
      expect(r.text).toContain(`<link rel="alternate" type="application/json" href="/missions/${mission.id}"/>`);
      expect(r.text).toContain('<link rel="alternate" type="application/rss+xml"');
      const ld = jsonLdOf(r.text);
      expect(ld).toMatchObject({ "@context": "https://schema.org", name: mission.title, url: mission.view_url });
      // `<` is escaped inside JSON-LD: the title cannot close the script element.
      expect(r.text).toContain("\\u003c/script>\\u003cb>check");
    }
    for (const u of sitemap.filter((x) => !x.loc.includes("/m/"))) {
      const r = await html(new URL(u.loc).pathname);
      expect(r.status, u.loc).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    }
  });

  it("the anonymous mission page is shared from the list cache and follows a new submission at once", async () => {
    const { mission } = await openMission(t);
    const solver = await signIn(t);
    expect((await html(`/m/${mission.id}`)).text).toContain("Submissions (0)");
    const misses = t.deps.missionLists.misses;
    expect((await html(`/m/${mission.id}`)).text).toContain("Submissions (0)");
    expect(t.deps.missionLists.misses).toBe(misses); // second read: a cache hit
    await submitAs(t, mission.id, solver, "answer");
    expect((await html(`/m/${mission.id}`)).text).toContain("Submissions (1)");
  });

  it("the brand: name, logo and accent from the settings; the accent served after web.css", async () => {
    const logo = "data:image/png;base64,iVBORw0KGgo=";
    const b = await makeTestApp({
      OABP_BRAND_NAME: "Acme Bounties",
      OABP_BRAND_LOGO_URL: logo,
      OABP_BRAND_ACCENT: "#7a1fa2",
    });
    try {
      const res = await b.app.request("/", { headers: { accept: "text/html" } });
      const page = await res.text();
      expect(page).toContain("<title>Missions with escrowed rewards · Acme Bounties</title>");
      expect(page).toContain('<meta property="og:site_name" content="Acme Bounties"/>');
      expect(page).toContain(`<img src="${logo}" alt="" width="24" height="24"/>Acme Bounties`);
      const links = [...page.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
      expect(links).toEqual([expect.stringMatching(/^\/assets\/web-[\w-]+\.css$/), "/assets/brand.css?v=7a1fa2.2"]);
      // Light scheme: the accent itself; dark scheme: a lighter shade of it that reads on the dark page.
      const css = await (await b.app.request(links[1]!)).text();
      expect(css).toBe(
        `:root{--accent:#7a1fa2}@media (prefers-color-scheme: dark){:root{--accent:${darkAccent("#7a1fa2")}}}`,
      );
      expect(darkAccent("#7a1fa2")).not.toBe("#7a1fa2");
    } finally {
      await b.close();
    }
    // The default: its own name, and no extra stylesheet.
    const page = (await html("/")).text;
    expect(page).toContain("· Open Bounty Board</title>");
    expect(page).not.toContain("brand.css");
  });

  it("unknown missions and agents are HTML 404 pages; bad filters are HTML 400 pages", async () => {
    expect((await html("/m/mis_nope")).status).toBe(404);
    expect((await html("/u/not-an-address")).status).toBe(400);
    // A mistyped filter: the board's form again, saying what to fix, in words (no wire jargon).
    const bad = await html("/?verification_type=bogus");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Some filters need a fix");
    expect(bad.text).toContain('name="verification_type" aria-invalid="true"');
    const amount = await html("/?min_reward=-1");
    expect(amount.status).toBe(400);
    expect(amount.text).toContain("Enter an amount in USDC like 50 or 12.5.");
    expect(amount.text).not.toMatch(/uint256|base-10/);
  });

  it("Markdown: raw HTML shown as text, only http(s)/mailto links, with rel=nofollow ugc", async () => {
    const { mission } = await openMission(t, {
      description:
        "**b** <script>x()</script> <img src=x onerror=y()> [ok](https://example.org) [bad](javascript:alert(1)) ![i](https://example.org/i.png)\n\n<div onclick=z()>block</div>",
    });
    const page = (await html(`/m/${mission.id}`)).text;
    const md = /<section class="md" aria-label="Description">([\s\S]*?)<\/section>/.exec(page)![1]!;
    expect(md).toContain("<strong>b</strong>");
    expect(md).toContain("&lt;script&gt;x()&lt;/script&gt;");
    expect(md).toContain("&lt;img src=x onerror=y()&gt;");
    expect(md).toContain("&lt;div onclick=z()&gt;block&lt;/div&gt;");
    expect(md).toContain('<a href="https://example.org" rel="nofollow ugc noopener noreferrer">ok</a>');
    expect(md).not.toMatch(/href="javascript:/i);
    expect(md).not.toContain("<img");
  });
});

describe("browser sessions", () => {
  async function cookieSession() {
    const account = newAccount();
    const message = await siweMessageFor(t, account);
    const signature = await account.signMessage({ message });
    const res = await t.app.request("/web/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message, signature }),
    });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get("set-cookie")!;
    const body = (await res.json()) as { agent_id: string; csrf_token: string };
    const token = /oabp_session=([^;]+)/.exec(setCookie)![1]!;
    return { account, setCookie, token, cookie: `oabp_session=${token}`, ...body };
  }

  it("SIWE sets an HttpOnly SameSite cookie; writes need the CSRF token; bearer callers are unaffected", async () => {
    const s = await cookieSession();
    expect(s.setCookie).toMatch(/HttpOnly/i);
    expect(s.setCookie).toMatch(/SameSite=Lax/i);
    expect(s.setCookie).not.toMatch(/Secure/i); // http public URL; https gets Secure and __Host- (below)
    // Masked per response (docs/decisions.md "CSRF token masked per response"): never the raw token.
    expect(s.csrf_token).not.toContain(csrfTokenFor(s.token));
    await credit(t, s.agent_id, 1_000_000_000n);
    const body = JSON.stringify(missionBody(t, { title: "From a cookie" }));
    const post = (headers: Record<string, string>) =>
      t.app.request("/missions", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: s.cookie, ...headers },
        body,
      });
    const noCsrf = await post({});
    expect(noCsrf.status).toBe(403);
    expect(((await noCsrf.json()) as any).details.reason).toBe("csrf_token_missing_or_wrong");
    expect((await post({ "x-csrf-token": "wrong" })).status).toBe(403);
    const ok = await post({ "x-csrf-token": s.csrf_token });
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as any).creator).toBe(s.agent_id);
    // The page hands the token to the signed-in viewer only.
    const me = await html("/me", { cookie: s.cookie });
    expect(me.text).toMatch(/<meta name="oabp-csrf" content="[A-Za-z0-9_-]{100,}"\/>/);
    expect((await html("/me")).text).not.toContain("oabp-csrf");
    // Bearer requests never look at the cookie (and need no CSRF token).
    const bearer = await signIn(t);
    const r = await t.app.request(`/agents/${bearer.address}`, {
      headers: { authorization: `Bearer ${bearer.token}`, cookie: s.cookie },
    });
    expect(r.status).toBe(200);
  });

  it("sign-out revokes the session; a dead cookie reads as anonymous and does not block signing in again", async () => {
    const s = await cookieSession();
    const out = await t.app.request("/web/session", {
      method: "DELETE",
      headers: { cookie: s.cookie, "x-csrf-token": s.csrf_token },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/oabp_session=;/);
    expect((await html("/me", { cookie: s.cookie })).text).toContain("<h1>Sign in</h1>");
    const nonce = await t.app.request("/auth/nonce", { method: "POST", headers: { cookie: s.cookie } });
    expect(nonce.status).toBe(200);
  });

  it("on https the cookie is __Host- and Secure", async () => {
    const https = await makeTestApp({ OABP_PUBLIC_URL: "https://board.example" });
    try {
      const account = newAccount();
      const message = await siweMessageFor(https, account);
      const signature = await account.signMessage({ message });
      const res = await https.app.request("/web/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message, signature }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("set-cookie")).toMatch(/^__Host-oabp_session=oabp_[^;]+;.*Secure/i);
    } finally {
      await https.close();
    }
  });
});
