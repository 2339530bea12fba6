import type { Context } from "hono";
import type { Ctx } from "../lib/context";
import { type Answer, checkIdempotencyKey, idempotent } from "../lib/idempotency";
import { ctxFromRequest } from "./context";
import { requireAgent } from "./identity";
import { sendStored } from "./respond";
import type { AppEnv } from "./types";

// The steps a feature's router (`<name>.index.ts`, docs/architecture.md "A feature's files") takes
// again and again before and after its verb: who may call, and how a write under a key is answered.

type AnonymousCode = Parameters<typeof requireAgent>[1];

/**
 * The verb context of a request only an agent may make: the admin token gets 403, an anonymous
 * caller 401 (AIP-1 §1.4's 403 where `anonymous` says so), before the verb runs.
 */
export function agentCtx(c: Context<AppEnv>, anonymous: AnonymousCode = "UNAUTHORIZED"): Ctx {
  requireAgent(c.get("identity"), anonymous);
  return ctxFromRequest(c);
}

/** What a write under an Idempotency-Key stores: its scope, its request (hashed) and its answer. */
type Once<T> = { scope: string; request: unknown; answer: (result: T) => Answer };

/**
 * A write under the request's Idempotency-Key (docs/decisions.md "Idempotency-Key": same key +
 * same body → the stored response): `verb` runs at most once per key, and the answer is the stored
 * JSON text, replays marked `Idempotent-Replayed`.
 */
export async function sendOnce<T>(c: Context<AppEnv>, once: Once<T>, verb: (ctx: Ctx) => Promise<T>) {
  const key = checkIdempotencyKey(c.req.header("idempotency-key"));
  return sendStored(c, await idempotent(ctxFromRequest(c), { key, ...once }, verb));
}
