import { z } from "@hono/zod-openapi";
import { routes } from "../../http/route";
import { PayoutsPage, PayoutsQuery, StatsResponse, TransparencyResponse } from "./transparency.schemas";

const route = routes("escrow");
const discoveryRoute = routes("discovery");

export const transparencyRoute = route.get(
  "/transparency",
  "Public proof of escrow (AIP-1 §6 provable balance): the ledger rail's signed per-asset totals and hash-chain heads, the base rail reconciled against the contract's balance",
  {
    description:
      "Cached a few seconds per instance. `ledger.attestation` verifies offline like a §6.1 receipt. `base.reconciled` compares the database's held total with balanceOf(escrow) at one confirmed block; without an RPC, `base.rpc` is `not_configured`.",
    ok: [200, TransparencyResponse, "The transparency document"],
  },
);

export const payoutsFeedRoute = route.get(
  "/transparency/payouts",
  "Every payout to a winner of a public mission, newest first (cursor-paged)",
  { in: { query: PayoutsQuery }, ok: [200, PayoutsPage, "A page of payouts"], errors: ["INVALID_PARAMETER"] },
);

export const statsRoute = discoveryRoute.get(
  "/stats",
  "Public counters for directories: missions by status, volume paid per asset, agents",
  {
    description: "Recomputed at most once a minute per instance; Cache-Control: public, max-age=60; ETag.",
    ok: [200, StatsResponse, "The counters"],
    responses: { 304: { description: "Not modified (If-None-Match matched)" } },
  },
);

export const payoutsAtomRoute = discoveryRoute.get(
  "/transparency/payouts.atom",
  "The newest payouts as Atom, RFC 4287 (same filters as /transparency/payouts, no cursor)",
  {
    in: { query: PayoutsQuery.omit({ cursor: true }) },
    responses: {
      200: {
        description: "Atom feed",
        content: { "application/atom+xml": { schema: z.string().openapi({ format: "xml" }) } },
      },
    },
    errors: ["INVALID_PARAMETER"],
  },
);
