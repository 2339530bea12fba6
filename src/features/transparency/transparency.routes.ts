import { createRoute, z } from "@hono/zod-openapi";
import { routes } from "../../http/route";
import { errors, jsonResponse } from "../../http/openapi";
import { PayoutsPage, PayoutsQuery, StatsResponse, TransparencyResponse } from "./transparency.schemas";

const route = routes("escrow");
const discoveryRoute = routes("discovery");

export const transparencyRoute = createRoute({
  ...route.get(
    "/transparency",
    "Public proof of escrow (AIP-1 §6 provable balance): the ledger rail's signed per-asset totals and hash-chain heads, the base rail reconciled against the contract's balance",
  ),
  description:
    "Cached a few seconds per instance. `ledger.attestation` verifies offline like a §6.1 receipt. `base.reconciled` compares the database's held total with balanceOf(escrow) at one confirmed block; without an RPC, `base.rpc` is `not_configured`.",
  responses: { 200: jsonResponse(TransparencyResponse, "The transparency document"), ...errors() },
});

export const payoutsFeedRoute = createRoute({
  ...route.get("/transparency/payouts", "Every payout to a winner of a public mission, newest first (cursor-paged)"),
  request: { query: PayoutsQuery },
  responses: { 200: jsonResponse(PayoutsPage, "A page of payouts"), ...errors("INVALID_PARAMETER") },
});

export const statsRoute = createRoute({
  ...discoveryRoute.get("/stats", "Public counters for directories: missions by status, volume paid per asset, agents"),
  description: "Recomputed at most once a minute per instance; Cache-Control: public, max-age=60; ETag.",
  responses: {
    200: jsonResponse(StatsResponse, "The counters"),
    304: { description: "Not modified (If-None-Match matched)" },
    ...errors(),
  },
});

export const payoutsAtomRoute = createRoute({
  ...discoveryRoute.get(
    "/transparency/payouts.atom",
    "The newest payouts as Atom, RFC 4287 (same filters as /transparency/payouts, no cursor)",
  ),
  request: { query: PayoutsQuery.omit({ cursor: true }) },
  responses: {
    200: {
      description: "Atom feed",
      content: { "application/atom+xml": { schema: z.string().openapi({ format: "xml" }) } },
    },
    ...errors("INVALID_PARAMETER"),
  },
});
