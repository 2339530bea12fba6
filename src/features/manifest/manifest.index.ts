import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { errors, router } from "../../http/openapi";
import type { AppEnv } from "../../http/types";
import { manifestBytes } from "./manifest";
import { refreshTreasuryHealth } from "../escrow";

const ManifestDoc = z
  .record(z.string(), z.unknown())
  .openapi("OabpManifest", { description: "AIP-1 §9 discovery document (see README for the fields)" });
const route = (path: string, summary: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["discovery"],
    summary,
    responses: {
      200: { description: "The manifest", content: { "application/json": { schema: ManifestDoc } } },
      ...errors(),
    },
  });

// Precomputed bytes, so the alias is byte-identical by construction (§9 "Filename aliases").
const serve = async (c: Context<AppEnv>) => {
  await refreshTreasuryHealth(c.get("deps")); // AIP-4 §8.2 treasury_health, re-read every few seconds
  c.header("Content-Type", "application/json; charset=utf-8");
  c.header("Cache-Control", "public, max-age=300");
  return c.body(manifestBytes(c.get("deps")), 200) as never;
};

export const manifestRouter = router()
  .openapi(route("/.well-known/oabp.json", "OABP discovery manifest (AIP-1 §9)"), serve)
  .openapi(route("/.well-known/agent-bounty.json", "Byte-identical alias of /.well-known/oabp.json (AIP-1 §9)"), serve);
