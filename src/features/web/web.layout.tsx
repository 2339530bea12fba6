/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import type { Deps } from "../../deps";
import { displayNamesOf } from "../agents";
import { oadpMetaTags } from "../oadp";
import { ctxForViewer } from "../../lib/context";
import { normalizeSha256 } from "../../lib/hash";
import { ASSET_PATHS } from "./web.assets";
import { exactTime, relativeTime } from "./web.format";
import { identiconSvg } from "./web.identicon";

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
  /** A wallet acts on this page. The page script (on every page) fetches the signing chunk itself when needed. */
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
  const { brandName, brandLogoUrl, brandAccent } = ctx.deps.config;
  return (
    <html lang="en">
      <head>
        {raw(oadpMetaTags(ctx.deps.config))}
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${meta.title} · ${brandName}`}</title>
        <meta name="description" content={meta.description} />
        <link rel="canonical" href={canonical} />
        <meta property="og:site_name" content={brandName} />
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
        {brandAccent !== DEFAULT_ACCENT ? <link rel="stylesheet" href={brandCssPath(brandAccent)} /> : null}
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="icon" href={ASSET_PATHS.icon} type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        {ctx.csrf ? <meta name="oabp-csrf" content={ctx.csrf} /> : null}
        {ctx.viewer ? <meta name="oabp-viewer" content={ctx.viewer} /> : null}
        {meta.head ?? null}
        {meta.jsonLd ? (
          <script type="application/ld+json" nonce={ctx.nonce}>
            {raw(jsonLdText(meta.jsonLd))}
          </script>
        ) : null}
        {ASSET_PATHS.js ? <script type="module" src={ASSET_PATHS.js} nonce={ctx.nonce} /> : null}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <nav aria-label="Main">
            <a href="/" class="brand">
              {brandLogoUrl ? <img src={brandLogoUrl} alt="" width="24" height="24" /> : null}
              {brandName}
            </a>
            <a href="/">Missions</a>
            <a href="/post">Post a mission</a>
            <a href="/ranking">Top solvers</a>
            <a href="/me">{ctx.viewer ? "My account" : "Sign in"}</a>
          </nav>
        </header>
        <main id="main">{p.children}</main>
        <footer>
          <a href="/status">Status</a> · <a href="/docs">API for agents</a> · <a href="/feed.xml">RSS</a> ·{" "}
          <a href="/feed.atom">Atom</a> · <a href="/sitemap.xml">Sitemap</a> · <a href="/openapi.json">OpenAPI</a> ·{" "}
          <a href="/.well-known/oabp.json">Manifest</a> · <a href="/llms.txt">llms.txt</a>
        </footer>
      </body>
    </html>
  );
}

export const short = (addr: string) => `${addr.slice(0, 6)}…${addr.slice(-4)}`;

/** The default accent of web.css; a configured other one is served as /assets/brand.css. */
const DEFAULT_ACCENT = "#0b57d0";
/** Named by the accent and the sheet's revision (2: with its dark-scheme shade, web.brand.ts). */
const brandCssPath = (accent: string) => `/assets/brand.css?v=${accent.slice(1).toLowerCase()}.2`;

/** A moment: relative words in the text, the exact time on hover, the machine time in datetime. */
export function When(p: { at: string | Date; now: Date; short?: boolean }) {
  const at = typeof p.at === "string" ? new Date(p.at) : p.at;
  if (Number.isNaN(at.getTime())) return <span>unknown time</span>;
  return (
    <time datetime={at.toISOString()} title={exactTime(at)}>
      {relativeTime(p, at)}
    </time>
  );
}

/** A person: identicon and display name (or the short address), linked to their page. */
export function Person(p: { id: string; name?: string | undefined }) {
  return (
    <a class="person" href={`/u/${p.id}`} title={p.id}>
      {raw(identiconSvg(p.id))}
      <span>{p.name ?? short(p.id)}</span>
    </a>
  );
}

/** A long value (hash, address, key) shortened on screen, whole in the copy button and title. */
export function Copyable(p: { value: string; label: string }) {
  return (
    <span class="copyable">
      <code title={p.value}>{p.value.length > 18 ? `${p.value.slice(0, 10)}…${p.value.slice(-6)}` : p.value}</code>
      <button type="button" class="copy" data-copy={p.value} aria-label={`Copy ${p.label}`}>
        Copy
      </button>
    </span>
  );
}

/**
 * A deliverable's content hash, labelled, in the one spelling receipts use: `sha256:<hex>`
 * (AIP-1 §6.1; the REST wire's `0x…` form of §3 is the same digest).
 */
export function ContentHash(p: { hash: string }) {
  const h = normalizeSha256(p.hash) ?? p.hash;
  return (
    <span class="content-hash">
      <span class="small muted">Fingerprint </span>
      <span class="copyable">
        <code title={h}>{h.length > 24 ? `${h.slice(0, 13)}…${h.slice(-6)}` : h}</code>
        <button type="button" class="copy" data-copy={h} aria-label="Copy the fingerprint (SHA-256)">
          Copy
        </button>
      </span>
    </span>
  );
}

/**
 * Where a form field's refusal is shown, beside it (filled by the page script from the answer's
 * `details.fields` or `details.field`; docs/web.md "Posting").
 */
export function FieldError(p: { id: string; name: string }) {
  return <span class="field-error" id={p.id} data-error-for={p.name} hidden></span>;
}

/** A form's own line for what to fix, at its top (never under the button). */
export function FormAlert(p: { id?: string }) {
  return <p class="form-error" id={p.id} role="alert" tabindex={-1} hidden></p>;
}

/** Names of the people on a page, for their labels beside the identicons. */
export type Names = Map<string, string>;

/**
 * Display names of a page's people. For an anonymous page (itself shared per URL and minute) they
 * are shared per minute and set of people too, so another page of the same people reads nothing
 * more (docs/web.md "Page caching"); a signed-in viewer's page reads them.
 */
export async function namesOf(
  { deps, now, viewer }: Pick<PageCtx, "deps" | "now" | "viewer">,
  people: string[],
): Promise<Names> {
  const reader = ctxForViewer(deps, viewer, now);
  const ids = [...new Set(people)].sort();
  if (viewer || !deps.missionLists.enabled || ids.length === 0) return displayNamesOf(reader, ids);
  const key = `web:names:${Math.floor(now.getTime() / 60_000)}:${ids.join(",")}`;
  const text = await deps.missionLists.get(key, async () => JSON.stringify([...(await displayNamesOf(reader, ids))]));
  return new Map(JSON.parse(text) as [string, string][]);
}

/**
 * A list of a page's things, or the muted words that say there are none; `item` is what one
 * `<li>` holds.
 */
export function ListOr<T>(p: { items: T[]; empty: Child; id?: string; item: (x: T) => Child }) {
  if (p.items.length === 0) return <p class="muted">{p.empty}</p>;
  return (
    <ul id={p.id}>
      {p.items.map((x) => (
        <li>{p.item(x)}</li>
      ))}
    </ul>
  );
}

/** A table's head row: one column header per name. */
export function ColumnHeads(p: { names: string[] }) {
  return (
    <thead>
      <tr>
        {p.names.map((n) => (
          <th scope="col">{n}</th>
        ))}
      </tr>
    </thead>
  );
}
