import type { Context, MiddlewareHandler } from "hono";
import type { Config } from "../../env";
import { AGENT_PROTOCOL } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { AGENT_PROTOCOL_PATH } from "../wellknown";

// OADP "HTML Meta" signal layer: `<meta name="agent-protocol" content="oadp/1.0">` on every web
// page. The web board (features/web) serves the HTML pages, `/` included; the middleware below
// puts the tags into every text/html response, so no page can miss them.

const escapeAttr = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
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

/**
 * Requests whose page wrote the tags itself (the web board's layout): their HTML is not re-read,
 * so a cached page goes out as the bytes it was stored as.
 */
const SIGNALLED = new WeakSet<object>();

/** Marks this request's HTML as carrying the tags already (its renderer put oadpMetaTags in <head>). */
export function markOadpSignalled(c: Context<AppEnv>): void {
  SIGNALLED.add(c.req.raw);
}

/** Every text/html response carries the OADP meta tags. Costs nothing on JSON responses. */
export function oadpHtmlSignal(config: Config): MiddlewareHandler<AppEnv> {
  const tags = oadpMetaTags(config);
  return async (c, next) => {
    await next();
    if (SIGNALLED.has(c.req.raw)) return;
    if (c.req.method === "HEAD" || !/^text\/html\b/i.test(c.res.headers.get("content-type") ?? "") || !c.res.body)
      return;
    const html = await c.res.text();
    const out = withOadpMeta(html, tags);
    const old = c.res;
    old.headers.delete("content-length"); // the setter below copies the old headers over
    c.res = new Response(out, { status: old.status, headers: old.headers });
  };
}

/** `/` content negotiation: browsers, crawlers and OADP scanners get the board (web.index.tsx); a JSON-only client keeps the JSON 404. */
export function wantsHtml(c: Context<AppEnv>): boolean {
  const accept = (c.req.header("accept") ?? "").toLowerCase();
  return !accept.includes("application/json") || accept.includes("text/html");
}
