import { createRoute, z } from "@hono/zod-openapi";
import { routes } from "../../http/route";
import { errors } from "../../http/openapi";
import { BadgeSvg, RatingList, ratingListQuery } from "./leaderboard.schemas";
import { AgentIdParam } from "../../http/params";

const route = routes("reputation");
const agentsRoute = routes("agents");

const badgeHeaders = {
  ETag: { schema: { type: "string" as const }, description: "Strong validator: a hash of the SVG bytes" },
  "Cache-Control": { schema: { type: "string" as const }, description: "public, max-age=300" },
};

const badgeResponses = {
  200: {
    description: "The badge (decayed rating at request time; 1400 for an address never seen)",
    headers: badgeHeaders,
    content: { "image/svg+xml": { schema: BadgeSvg } },
  },
  304: { description: "If-None-Match matched the current ETag", headers: badgeHeaders },
  ...errors(),
};

export const agentBadgeRoute = createRoute({
  ...route.get("/agents/{id}/badge.svg", "Embeddable rating badge (AIP-1 §5)"),
  request: {
    params: AgentIdParam,
    headers: z.object({ "if-none-match": z.string().optional() }),
  },
  responses: badgeResponses,
});

/**
 * Documentation of the `/badge/agent/{id}.svg` alias. Hono cannot route a parameter that is only
 * part of a path segment, so the alias is wired by hand in badge-leaderboard.index.ts and this
 * object only feeds the OpenAPI document.
 */
export const badgeAliasDoc = {
  method: "get" as const,
  path: "/badge/agent/{id}.svg",
  tags: ["reputation"],
  summary: "Alias of /agents/{id}/badge.svg",
  request: { params: AgentIdParam, headers: z.object({ "if-none-match": z.string().optional() }) },
  responses: badgeResponses,
};

export const leaderboardRoute = route.get(
  "/leaderboard",
  "Agents by decayed rating, descending; by default only agents with a completed mission (Sybil floor)",
  {
    in: { query: ratingListQuery(1) },
    ok: [200, RatingList, "A page of the leaderboard"],
    errors: [["INVALID_PARAMETER", "cursor_expired", "malformed"]],
  },
);

export const listAgentsRoute = agentsRoute.get(
  "/agents",
  "Every known agent by decayed rating, descending (same order and filters as /leaderboard, min_missions default 0)",
  {
    in: { query: ratingListQuery(0) },
    ok: [200, RatingList, "A page of agents"],
    errors: [["INVALID_PARAMETER", "cursor_expired", "malformed"]],
  },
);
