/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import type { Deps } from "../../deps";
import { SERVER_NAME } from "../wellknown";
import { ASSET_PATHS } from "./web.assets";

/** What every page knows about the request (built once per request in web.index.ts). */
export interface PageCtx {
  deps: Deps;
  nonce: string;
  now: Date;
  /** Signed-in address (cookie session), if any. */
  viewer?: string | undefined;
  csrf?: string | undefined;
}

export interface PageMeta {
  title: string;
  description: string;
  /** Path of the canonical URL (the same URL view_url, the sitemap and the feeds give). */
  path: string;
  ogType?: "website" | "article" | "profile";
  /** schema.org object, embedded as JSON-LD. */
  jsonLd?: Record<string, unknown>;
  alternates?: { json?: string; rss?: string; atom?: string };
  /** Load the wallet bundle: only on pages where a wallet acts. */
  wallet?: boolean;
  /** Extra head children (e.g. /docs stylesheet). */
  head?: Child;
}

/** JSON-LD inside <script>: `<` escaped so no string in it can close the element (HTML §4.12.1.3). */
export const jsonLdText = (o: unknown) =>
  JSON.stringify(o)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

export function Layout(p: { ctx: PageCtx; meta: PageMeta; children?: Child }) {
  const { ctx, meta } = p;
  const base = ctx.deps.config.publicUrl;
  const canonical = `${base}${meta.path}`;
  const a = meta.alternates ?? {};
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${meta.title} · ${SERVER_NAME}`}</title>
        <meta name="description" content={meta.description} />
        <link rel="canonical" href={canonical} />
        <meta property="og:site_name" content={SERVER_NAME} />
        <meta property="og:title" content={meta.title} />
        <meta property="og:description" content={meta.description} />
        <meta property="og:url" content={canonical} />
        <meta property="og:type" content={meta.ogType ?? "website"} />
        <meta name="twitter:card" content="summary" />
        <meta name="twitter:title" content={meta.title} />
        <meta name="twitter:description" content={meta.description} />
        {a.json ? <link rel="alternate" type="application/json" href={a.json} /> : null}
        <link rel="alternate" type="application/rss+xml" title="Open missions (RSS)" href={a.rss ?? "/feed.xml"} />
        <link rel="alternate" type="application/atom+xml" title="Open missions (Atom)" href={a.atom ?? "/feed.atom"} />
        <link rel="stylesheet" href={ASSET_PATHS.css} />
        {ctx.csrf ? <meta name="oabp-csrf" content={ctx.csrf} /> : null}
        {ctx.viewer ? <meta name="oabp-viewer" content={ctx.viewer} /> : null}
        {meta.head ?? null}
        {meta.jsonLd ? (
          <script type="application/ld+json" nonce={ctx.nonce}>
            {raw(jsonLdText(meta.jsonLd))}
          </script>
        ) : null}
        {meta.wallet ? <script type="module" src={ASSET_PATHS.js} nonce={ctx.nonce} defer /> : null}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <nav aria-label="Main">
            <a href="/" class="brand">
              {SERVER_NAME}
            </a>
            <a href="/">Board</a>
            <a href="/post">Post</a>
            <a href="/ranking">Leaderboard</a>
            <a href="/status">Status</a>
            <a href="/docs">API</a>
            <a href="/me">{ctx.viewer ? `Me (${short(ctx.viewer)})` : "Sign in"}</a>
          </nav>
        </header>
        <main id="main">{p.children}</main>
        <footer>
          <a href="/feed.xml">RSS</a> · <a href="/feed.atom">Atom</a> · <a href="/sitemap.xml">Sitemap</a> ·{" "}
          <a href="/openapi.json">OpenAPI</a> · <a href="/.well-known/oabp.json">Manifest</a> ·{" "}
          <a href="/llms.txt">llms.txt</a>
        </footer>
      </body>
    </html>
  );
}

export const short = (addr: string) => `${addr.slice(0, 6)}…${addr.slice(-4)}`;
