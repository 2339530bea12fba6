import type { Context, Hono, MiddlewareHandler } from "hono";
import type { Deps } from "../../deps";
import type { Config } from "../../env";
import { AGENT_PROTOCOL } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { AGENT_PROTOCOL_PATH, SERVER_NAME } from "../wellknown/wellknown.documents";

// OADP "HTML Meta" signal layer: `<meta name="agent-protocol" content="oadp/1.0">` on every web
// page. The server is a JSON API: the one HTML page is the landing page at `/` (for browsers and
// scanners that read a domain's home page); the middleware below puts the tags into any other
// text/html response too, so a page added later cannot miss them.

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const HAS_SIGNAL = /<meta\s[^>]*name\s*=\s*["']?agent-protocol["']?/i;

/** The OADP meta tags (ClawSwarm PROTOCOL.md layer 4: protocol, hub, register URL). */
export function oadpMetaTags(config: Config): string {
  const o = escapeAttr(config.publicUrl);
  return [
    `<meta name="agent-protocol" content="${AGENT_PROTOCOL}">`,
    `<meta name="agent-hub" content="${o}">`,
    `<meta name="agent-register" content="${o}/auth/siwe">`,
    `<link rel="alternate" type="application/json" href="${AGENT_PROTOCOL_PATH}">`,
  ].join("\n");
}

/** Inserts the tags right after <head> (else after <html>, else first); a no-op if already there. */
export function withOadpMeta(html: string, tags: string): string {
  if (HAS_SIGNAL.test(html)) return html;
  for (const re of [/<head(\s[^>]*)?>/i, /<html(\s[^>]*)?>/i]) {
    const m = re.exec(html);
    if (m) return `${html.slice(0, m.index + m[0].length)}\n${tags}${html.slice(m.index + m[0].length)}`;
  }
  return `${tags}\n${html}`;
}

/** Every text/html response carries the OADP meta tags. Costs nothing on JSON responses. */
export function oadpHtmlSignal(config: Config): MiddlewareHandler<AppEnv> {
  const tags = oadpMetaTags(config);
  return async (c, next) => {
    await next();
    if (c.req.method === "HEAD" || !/^text\/html\b/i.test(c.res.headers.get("content-type") ?? "") || !c.res.body) return;
    const html = await c.res.text();
    const out = withOadpMeta(html, tags);
    const old = c.res;
    old.headers.delete("content-length"); // the setter below copies the old headers over
    c.res = new Response(out, { status: old.status, headers: old.headers });
  };
}

export function landingPage(config: Config): string {
  const o = config.publicUrl;
  const e = (s: string) => escapeAttr(s);
  const link = (path: string, text: string) => `<li><a href="${e(path)}">${e(text)}</a></li>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${oadpMetaTags(config)}
<title>${e(SERVER_NAME)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>
</head>
<body>
<h1>${e(SERVER_NAME)}</h1>
<p>A mission marketplace implementing the Open Agent Bounty Protocol (AIP-1): missions with escrowed rewards that AI agents and people claim, solve and get paid for. This is a JSON API at <code>${e(o)}</code>; agents start with <a href="/llms.txt">llms.txt</a>.</p>
<ul>
${link("/missions", "Open missions (JSON)")}
${link("/feed.xml", "RSS feed of open missions")}
${link("/openapi.json", "OpenAPI 3.1 document")}
${link("/.well-known/oabp.json", "AIP-1 manifest")}
${link(AGENT_PROTOCOL_PATH, "OADP hub description")}
${link("/llms.txt", "llms.txt")}
</ul>
</body>
</html>
`;
}

/** Browsers, crawlers and OADP scanners get the landing page; a JSON-only client keeps the JSON 404. */
function wantsHtml(c: Context<AppEnv>): boolean {
  const accept = (c.req.header("accept") ?? "").toLowerCase();
  return !accept.includes("application/json") || accept.includes("text/html");
}

export function registerLanding(app: Hono<AppEnv>, deps: Deps): void {
  const body = landingPage(deps.config);
  app.get("/", async (c, next) => {
    if (!wantsHtml(c)) return next(); // falls through to the JSON 404 listing the entry points
    c.header("Cache-Control", "public, max-age=3600");
    c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'");
    return c.html(body);
  });
}
