import type { Context } from "hono";
import type { ErrorCode } from "../lib/errors";
import type { AppEnv } from "./types";

// The Agent Mesh dialect (docs/neighbours.md "Mesh dialect"): on the Mesh routes, errors in the
// Mesh document's envelope ("Error Response Format") with its codes, and discovery as a bare
// array. Chosen by `?format=mesh` (or `?format=oabp` for this server's own), and the default in
// private-network mode (OABP_MESH_PRIVATE_NETWORK), where the document's clients live.

/** The Mesh document's routes (under `/` and `/api`), the heartbeat included. */
const MESH_PATHS = /^(\/api)?\/(agents\/register|agents\/[^/]+\/heartbeat|skills)(\/|$)/;

/** Whether this request is answered in the Mesh dialect. */
export function meshDialect(c: Context<AppEnv>): boolean {
  if (!MESH_PATHS.test(c.req.path)) return false;
  const format = c.req.query("format");
  if (format === "mesh" || format === "oabp") return format === "mesh";
  return c.get("deps")?.config.meshPrivateNetwork === true;
}

/** The Mesh "Error Response Format" of one of our errors: a missing skill is SKILL_NOT_FOUND. */
export function meshErrorBody(
  c: Context<AppEnv>,
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> | undefined },
) {
  const { code, message, details } = error;
  const skillName = details?.skill_name;
  return {
    success: false as const,
    result: null,
    error: {
      code: code === "NOT_FOUND" && details?.reason === "skill_not_found" ? "SKILL_NOT_FOUND" : code,
      message,
      details: details ?? {},
    },
    metadata: {
      ...(typeof skillName === "string" ? { skillName } : {}),
      timestamp: (c.get("deps")?.clock.now() ?? new Date()).toISOString(),
      request_id: c.get("requestId") ?? "req_unknown",
    },
  };
}
