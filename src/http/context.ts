import type { Context } from "hono";
import type { Ctx } from "../lib/context";
import type { AppEnv } from "./types";

/** A REST request's verb context: its deps, its identity, and the clock read once for it. */
export function ctxFromRequest(c: Context<AppEnv>): Ctx {
  const deps = c.get("deps");
  return { deps, now: deps.clock.now(), caller: c.get("identity"), read: c.get("read") };
}
