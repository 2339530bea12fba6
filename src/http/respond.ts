import type { Context, MiddlewareHandler } from "hono";
import type { StoredResponse } from "../lib/idempotency";
import type { AppEnv } from "./types";
import { requireAgent } from "./identity";

/**
 * Sends a response produced under an Idempotency-Key: the exact stored JSON text (so a replay is
 * byte-identical) and `Idempotent-Replayed: true` when it is one.
 */
export function sendStored(c: Context<AppEnv>, r: StoredResponse) {
  if (r.replayed) c.header("Idempotent-Replayed", "true");
  c.header("Content-Type", "application/json; charset=utf-8");
  return c.body(r.body, r.status as 200) as never;
}

/**
 * AIP-1 §1.4: anonymous callers MUST NOT submit, vote or claim — and get the 403 before their
 * body is validated, so a malformed anonymous request is still the §1.4 answer.
 */
export const rejectAnonymousPosts: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "POST") requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
  await next();
};
