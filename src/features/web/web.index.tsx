/** @jsxImportSource hono/jsx */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { raw } from "hono/html";
import type { Deps } from "../../deps";
import { ctxFromRequest } from "../../http/context";
import { validationError } from "../../http/errors";
import { clearSessionCookie, maskedCsrfToken, readSessionCookie, setSessionCookie } from "../../http/session-cookie";
import type { AppEnv } from "../../http/types";
import { AppError } from "../../lib/errors";
import { revokeSession, signInWithEthereum } from "../auth";
import { createMissionOnce, createMissionOp, ListMissionsQuery } from "../missions";
import { requireAgent } from "../../http/identity";
import { sendOnce } from "../../http/handler";
import { markOadpSignalled, wantsHtml } from "../oadp";
import { etagMatches, jsonEtag } from "../../http/http-cache";
import { clientBundle, registerAssets } from "./web.assets";
import { BoardForm, boardListHtml, boardSummaryHtml } from "./web.board";
import { type BoardFilters, parseBoardQuery } from "./web.board-query";
import { agentPage } from "./web.agent";
import { Layout, type PageCtx } from "./web.layout";
import { brandCss } from "./web.brand";
import { missionPage } from "./web.mission";
import { docsPage, leaderboardPage, mePage, receiptPage, statusPage } from "./web.pages";
import { postPage } from "./web.post";
import { parsePostForm, PostFormBody, verbErrorFields } from "./web.post-form";
import { newNonce, setPageHeaders } from "./web.security";
import { PUBLIC_STATUSES } from "../../db/vocabulary";

// The web board. HTML lives at its own paths — `/`, `/m/{id}`,
// `/u/{address}`, `/ranking`, `/status`, `/docs`, `/me`, `/post` — so every JSON route keeps
// answering JSON whatever the Accept header says; `view_url`, the sitemap and the feeds point here.
// Pages call the same service verbs as REST; browser actions call the REST routes themselves.

/** The page paths (view_url and the sitemap use them; src/lib/view-paths, below the features). */
function pageCtx(c: Context<AppEnv>, nonce: string): PageCtx {
  const deps = c.get("deps");
  const who = c.get("identity");
  const cookie = readSessionCookie(c, deps.config.publicUrl);
  const viewer = who.kind === "agent" ? who.address : undefined;
  // The CSRF token is only handed out for a cookie session (bearer callers need none).
  return {
    deps,
    nonce,
    now: deps.clock.now(),
    viewer,
    csrf: viewer && cookie && who.kind === "agent" && who.via === "session" ? maskedCsrfToken(cookie) : undefined,
  };
}

const ERROR_TITLES: Partial<Record<string, [number, string]>> = {
  NOT_FOUND: [404, "Not found"],
  INVALID_PARAMETER: [400, "Bad request"],
};

/**
 * Runs a page: headers, per-response nonce, and HTML (not JSON) error pages for a reader's mistakes.
 * `shared` pages (docs/web.md "Page caching") are, for anonymous readers, rendered once per URL and
 * minute into the mission-list cache — the same cache and invalidation as the JSON list and
 * mission documents — and served from it with an ETag (304 on If-None-Match), no database read.
 */
function page(
  render: (ctx: PageCtx, c: Context<AppEnv>) => Promise<unknown> | unknown,
  o: { inlineStyles?: boolean; shared?: boolean } = {},
) {
  return async (c: Context<AppEnv>) => {
    const deps = c.get("deps");
    // Every page names the page script by its hash. Should the build fail, the page is served
    // without it (it works without JavaScript) and the next page tries the build again.
    await clientBundle().catch((err: unknown) => deps.logger.error({ err }, "web page script failed to build"));
    if (o.shared && c.get("identity").kind === "anonymous" && deps.missionLists.enabled) {
      const shared = await sharedPage(c, render).catch((err: unknown) => errorPage(c, err, newNonce(), o));
      if (!(shared instanceof Response)) {
        setPageHeaders(c, { ...o, nonce: shared.nonce });
        c.header("ETag", shared.etag);
        if (etagMatches(c.req.header("if-none-match"), shared.etag)) return c.body(null, 304);
        markOadpSignalled(c); // the layout wrote the OADP tags
        return c.html(shared.html);
      }
      return shared;
    }
    const nonce = newNonce();
    const ctx = pageCtx(c, nonce);
    setPageHeaders(c, { ...o, nonce });
    try {
      const body = await render(ctx, c);
      markOadpSignalled(c);
      return c.html(`<!doctype html>${String(body)}`);
    } catch (err) {
      return errorPage(c, err, nonce, o);
    }
  };
}

/**
 * An anonymous page from the cache: one rendering per URL and minute (relative times are shown to
 * the minute), dropped with the mission-list cache on every committed change to missions. Its
 * nonce is drawn when it is rendered and shared by the responses of that one rendering: any markup
 * in it existed before the nonce did, so it cannot carry it (docs/decisions.md).
 */
async function sharedPage(
  c: Context<AppEnv>,
  render: (ctx: PageCtx, c: Context<AppEnv>) => Promise<unknown> | unknown,
): Promise<{ nonce: string; etag: string; html: string }> {
  const deps = c.get("deps");
  const now = deps.clock.now();
  const url = new URL(c.req.url);
  const key = `web:page:${Math.floor(now.getTime() / 60_000)}:${url.pathname}${url.search}`;
  const text = await deps.missionLists.get(key, async () => {
    const nonce = newNonce();
    const html = `<!doctype html>${String(await render({ deps, nonce, now }, c))}`;
    return `${nonce}\n${jsonEtag(html)}\n${html}`;
  });
  const a = text.indexOf("\n");
  const b = text.indexOf("\n", a + 1);
  return { nonce: text.slice(0, a), etag: text.slice(a + 1, b), html: text.slice(b + 1) };
}

function errorPage(c: Context<AppEnv>, err: unknown, nonce: string, o: { inlineStyles?: boolean }): Response {
  const known = err instanceof AppError ? ERROR_TITLES[err.code] : undefined;
  if (!known || !(err instanceof AppError)) throw err;
  setPageHeaders(c, { ...o, nonce });
  const ctx = pageCtx(c, nonce);
  const [status, title] = known;
  const html = (
    <Layout ctx={ctx} meta={{ title, description: err.message, path: c.req.path }}>
      <h1>{title}</h1>
      <p>{err.message}</p>
      <p>
        <a href="/">Back to the board</a>
      </p>
    </Layout>
  );
  markOadpSignalled(c);
  return c.html(`<!doctype html>${String(html)}`, status as 404);
}

/**
 * The board's query as GET /missions and the feeds take it (docs/web.md "Alternates"): only their
 * own parameters, no empty form fields, and the board's status made explicit — its default
 * (open) and its `any` (every public status), which those routes do not know.
 */
function alternateQuery(f: BoardFilters): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || v === null || v === "" || k === "status" || k === "limit" || k === "cursor") continue;
    if (!(k in ListMissionsQuery.shape)) continue;
    out.set(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  const status = f.status === undefined ? PUBLIC_STATUSES : Array.isArray(f.status) ? f.status : [String(f.status)];
  out.set("status", status.join(","));
  return `?${out.toString().replace(/%2C/g, ",")}`;
}

async function boardPage(ctx: PageCtx, c: Context<AppEnv>) {
  const rawQuery = c.req.query();
  const { assets, brandName, publicUrl: pub } = ctx.deps.config;
  const parsed = parseBoardQuery(ctx, { raw: rawQuery, assets });
  // A filter a person mistyped is answered with the board's form and what to fix (status 400).
  if (!parsed.ok) c.status(400);
  const [summary, list] = await Promise.all([
    boardSummaryHtml(ctx),
    parsed.ok ? boardListHtml(ctx, { f: parsed.f, raw: rawQuery }) : "",
  ]);
  const qs = parsed.ok ? alternateQuery(parsed.f) : "";
  return (
    <Layout
      ctx={ctx}
      meta={{
        title: "Missions with escrowed rewards",
        description:
          "Paid missions with the reward held in escrow: pick one, solve it and get paid. Browse by tag, reward and deadline.",
        path: "/",
        alternates: { json: `/missions${qs}`, rss: `/feed.xml${qs}`, atom: `/feed.atom${qs}` },
        jsonLd: {
          "@context": "https://schema.org",
          "@type": "WebSite",
          name: brandName,
          url: `${pub}/`,
          potentialAction: {
            "@type": "SearchAction",
            target: `${pub}/?q={search_term_string}`,
            "query-input": "required name=search_term_string",
          },
        },
      }}
    >
      <h1>Missions</h1>
      {raw(summary)}
      <BoardForm raw={rawQuery} assets={assets} errors={parsed.ok ? undefined : parsed.errors} />
      {raw(list)}
    </Layout>
  );
}

const SessionBody = z.object({ message: z.string().min(1).max(4096), signature: z.string().min(1).max(4096) });

const SHARED = { shared: true };

/** The pages a browser reads (GET), their assets and the brand stylesheet. */
function registerPages(app: Hono<AppEnv>): void {
  registerAssets(app);
  // The configured accent colour (OABP_BRAND_ACCENT) and its dark-scheme shade (web.brand.ts),
  // linked only when it is not web.css's own.
  app.get("/assets/brand.css", (c) => {
    c.header("Content-Type", "text/css; charset=utf-8");
    c.header("Cache-Control", "public, max-age=86400");
    c.header("X-Content-Type-Options", "nosniff");
    return c.body(brandCss(c.get("deps").config.brandAccent));
  });
  // `/`: browsers get the board; a JSON-only client keeps the JSON 404 with the entry points.
  app.get("/", async (c, next) => {
    if (!wantsHtml(c)) return next();
    // A mistyped filter answers 400 with the form: rendered afresh, never from the shared cache.
    const deps = c.get("deps");
    const valid = parseBoardQuery({ now: deps.clock.now() }, { raw: c.req.query(), assets: deps.config.assets }).ok;
    return page(boardPage, valid ? SHARED : {})(c);
  });
  app.get(
    "/m/:id",
    page((ctx, c) => missionPage(ctx, c.req.param("id")!), SHARED),
  );
  app.get(
    "/m/:id/receipts/:sid",
    page((ctx, c) => receiptPage(ctx, { missionId: c.req.param("id")!, submissionId: c.req.param("sid")! })),
  );
  app.get(
    "/u/:id",
    page((ctx, c) => agentPage(ctx, c.req.param("id")!), SHARED),
  );
  app.get(
    "/ranking",
    page((ctx, c) => leaderboardPage(ctx, c.req.query("cursor")?.slice(0, 300)), SHARED),
  );
  app.get(
    "/status",
    page((ctx) => statusPage(ctx)),
  );
  app.get(
    "/docs",
    page((ctx) => docsPage(ctx), { inlineStyles: true }),
  );
  app.get(
    "/me",
    page((ctx) => mePage(ctx)),
  );
  app.get(
    "/post",
    page((ctx) => postPage(ctx)),
  );
}

export function registerWeb(app: Hono<AppEnv>, _deps: Deps): void {
  registerPages(app);
  // Browser sessions: the SIWE verb of POST /auth/siwe, with the token put in an HttpOnly cookie.
  app.post("/web/session", async (c) => {
    const deps = c.get("deps");
    const parsed = SessionBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) throw validationError(parsed.error);
    const s = await signInWithEthereum(ctxFromRequest(c), parsed.data);
    setSessionCookie(c, deps.config.publicUrl, s.token, new Date(s.expires_at));
    c.header("Cache-Control", "no-store");
    return c.json({ agent_id: s.agent_id, expires_at: s.expires_at, csrf_token: maskedCsrfToken(s.token) });
  });
  // The post form as typed (whole units, words): read here into the request of POST /missions and
  // run through the same verb under the same idempotency scope; what to fix comes back per field
  // (details.fields), beside each field on the page (docs/web.md "Posting").
  app.post("/web/post", async (c) => {
    const deps = c.get("deps");
    const creator = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const body = PostFormBody.safeParse(await c.req.json().catch(() => null));
    if (!body.success) throw validationError(body.error);
    const { assets } = deps.config;
    const form = parsePostForm(body.data, { assets, baseRail: !!deps.config.baseRail, now: deps.clock.now() });
    if (!form.ok)
      throw new AppError("INVALID_PARAMETER", "some fields of the form need a fix", { fields: form.errors });
    const request = form.request;
    try {
      return await sendOnce(c, { request, ...createMissionOnce(creator) }, (ctx) => createMissionOp.verb(ctx, request));
    } catch (err) {
      const fields = err instanceof AppError ? verbErrorFields({ err, request, assets }) : {};
      if (!(err instanceof AppError) || Object.keys(fields).length === 0) throw err;
      throw new AppError(err.code, err.message, { ...err.details, fields });
    }
  });
  // Sign-out: the identity middleware already demanded the CSRF token for this cookie.
  app.delete("/web/session", async (c) => {
    const deps = c.get("deps");
    const cookie = readSessionCookie(c, deps.config.publicUrl);
    if (cookie) await revokeSession(ctxFromRequest(c), { token: cookie });
    clearSessionCookie(c, deps.config.publicUrl);
    return c.body(null, 204);
  });
}
