/** @jsxImportSource hono/jsx */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { raw } from "hono/html";
import type { Deps } from "../../deps";
import { ctxFromRequest } from "../../http/context";
import { validationError } from "../../http/errors";
import { clearSessionCookie, csrfTokenFor, readSessionCookie, setSessionCookie } from "../../http/session-cookie";
import type { AppEnv } from "../../http/types";
import { AppError } from "../../lib/errors";
import { revokeSession, signInWithEthereum } from "../auth";
import { wantsHtml } from "../oadp";
import { registerAssets } from "./web.assets";
import { BoardFilters as BoardForm, boardListHtml, parseBoardQuery } from "./web.board";
import { agentPage } from "./web.agent";
import { Layout, type PageCtx } from "./web.layout";
import { missionPage } from "./web.mission";
import { docsPage, leaderboardPage, mePage, postPage, receiptPage, statusPage } from "./web.pages";
import { newNonce, setPageHeaders } from "./web.security";

// The web board. HTML lives at its own paths — `/`, `/m/{id}`,
// `/u/{address}`, `/ranking`, `/status`, `/docs`, `/me`, `/post` — so every JSON route keeps
// answering JSON whatever the Accept header says; `view_url`, the sitemap and the feeds point here.
// Pages call the same service verbs as REST; browser actions call the REST routes themselves.

/** The page paths (view_url and the sitemap use them; src/lib/view-paths, below the features). */
export { missionViewPath, agentViewPath } from "../../lib/view-paths";

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
    csrf: viewer && cookie && who.kind === "agent" && who.via === "session" ? csrfTokenFor(cookie) : undefined,
  };
}

const ERROR_TITLES: Partial<Record<string, [number, string]>> = {
  NOT_FOUND: [404, "Not found"],
  INVALID_PARAMETER: [400, "Bad request"],
};

/** Runs a page: headers, per-response nonce, and HTML (not JSON) error pages for a reader's mistakes. */
function page(
  render: (ctx: PageCtx, c: Context<AppEnv>) => Promise<unknown> | unknown,
  o: { inlineStyles?: boolean } = {},
) {
  return async (c: Context<AppEnv>) => {
    const nonce = newNonce();
    const ctx = pageCtx(c, nonce);
    setPageHeaders(c, nonce, o);
    try {
      const body = await render(ctx, c);
      return c.html(`<!doctype html>${String(body)}`);
    } catch (err) {
      const known = err instanceof AppError ? ERROR_TITLES[err.code] : undefined;
      if (!known || !(err instanceof AppError)) throw err;
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
      return c.html(`<!doctype html>${String(html)}`, status as 404);
    }
  };
}

async function boardPage(ctx: PageCtx, c: Context<AppEnv>) {
  const rawQuery = c.req.query();
  const parsed = parseBoardQuery(rawQuery);
  if (!parsed.ok) throw new AppError("INVALID_PARAMETER", parsed.message);
  const list = await boardListHtml(ctx.deps, parsed.f, ctx.now);
  const pub = ctx.deps.config.publicUrl;
  const qs = new URL(c.req.url).search;
  return (
    <Layout
      ctx={ctx}
      meta={{
        title: "Mission board",
        description:
          "Open missions with escrowed rewards: claim, solve and get paid. Filter by tag, asset, verification and reward.",
        path: "/",
        alternates: { json: `/missions${qs}`, rss: `/feed.xml${qs}`, atom: `/feed.atom${qs}` },
        jsonLd: {
          "@context": "https://schema.org",
          "@type": "WebSite",
          name: "OABP mission board",
          url: `${pub}/`,
          potentialAction: {
            "@type": "SearchAction",
            target: `${pub}/?q={search_term_string}`,
            "query-input": "required name=search_term_string",
          },
        },
      }}
    >
      <h1>Mission board</h1>
      <BoardForm raw={rawQuery} f={parsed.f} />
      {raw(list)}
    </Layout>
  );
}

const SessionBody = z.object({ message: z.string().min(1).max(4096), signature: z.string().min(1).max(4096) });

export function registerWeb(app: Hono<AppEnv>, _deps: Deps): void {
  registerAssets(app);
  // `/`: browsers get the board; a JSON-only client keeps the JSON 404 with the entry points.
  app.get("/", async (c, next) => (wantsHtml(c) ? page(boardPage)(c) : next()));
  app.get(
    "/m/:id",
    page((ctx, c) => missionPage(ctx, c.req.param("id")!)),
  );
  app.get(
    "/m/:id/receipts/:sid",
    page((ctx, c) => receiptPage(ctx, c.req.param("id")!, c.req.param("sid")!)),
  );
  app.get(
    "/u/:id",
    page((ctx, c) => agentPage(ctx, c.req.param("id")!)),
  );
  app.get(
    "/ranking",
    page((ctx, c) => leaderboardPage(ctx, c.req.query("cursor")?.slice(0, 300))),
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

  // Browser sessions: the SIWE verb of POST /auth/siwe, with the token put in an HttpOnly cookie.
  app.post("/web/session", async (c) => {
    const deps = c.get("deps");
    const parsed = SessionBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) throw validationError(parsed.error);
    const s = await signInWithEthereum(ctxFromRequest(c), parsed.data);
    setSessionCookie(c, deps.config.publicUrl, s.token, new Date(s.expires_at));
    c.header("Cache-Control", "no-store");
    return c.json({ agent_id: s.agent_id, expires_at: s.expires_at, csrf_token: csrfTokenFor(s.token) });
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
