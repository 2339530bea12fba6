import type { Context } from "hono";
import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import type { AppEnv } from "../../http/types";
import { agentBadge, etagMatches } from "./badge";
import { agentBadgeRoute, badgeAliasDoc, leaderboardRoute, listAgentsRoute } from "./badge-leaderboard.routes";
import { listByRating } from "./leaderboard";

/** Shared by both badge paths: 304 on a matching If-None-Match, else the SVG. */
async function sendBadge(c: Context<AppEnv>, rawId: string) {
  const { svg, etag } = await agentBadge(ctxFromRequest(c), { agentId: rawId });
  c.header("ETag", etag);
  // Shared caches may keep it 5 minutes: a badge can lag the rating by that much (README).
  c.header("Cache-Control", "public, max-age=300");
  if (etagMatches(c.req.header("if-none-match"), etag)) return c.body(null, 304);
  c.header("Content-Type", "image/svg+xml; charset=utf-8");
  c.header("X-Content-Type-Options", "nosniff");
  // Opened directly, an SVG is an active document: nothing in ours needs to load or run.
  c.header("Content-Security-Policy", "default-src 'none'");
  return c.body(svg, 200);
}

const badgeRouter = router();
badgeRouter.openAPIRegistry.registerPath(badgeAliasDoc);

export const badgeLeaderboardRouter = badgeRouter
  .openapi(agentBadgeRoute, (c) => sendBadge(c, c.req.valid("param").id))
  .openapi(leaderboardRoute, async (c) => c.json(await listByRating(ctxFromRequest(c), c.req.valid("query")), 200))
  .openapi(listAgentsRoute, async (c) => c.json(await listByRating(ctxFromRequest(c), c.req.valid("query")), 200));
// The alias: the id is the part of the last segment before ".svg" (parseAgentId gives the 400).
badgeLeaderboardRouter.get("/badge/agent/:file{[^/]+\\.svg}", (c) =>
  sendBadge(c, c.req.param("file").slice(0, -".svg".length)),
);
