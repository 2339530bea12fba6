import type { Db, DbOrTx, Tx } from "../db/client";
import { wakeEventHubs } from "../db/outbox";
import type { Deps } from "../deps";
import type { BaseChain } from "./base-chain";
import type { Identity } from "../http/types";
import { AppError } from "./errors";
import type { IdempotencyGuard } from "./idempotency";

/** Who is acting: a request's identity (agent, admin, anonymous), or the job runner. */
export type Caller = Identity | { kind: "job" };

/**
 * What every service verb receives first (docs/style.md "One verb shape"): the dependencies, the time
 * of the operation (read once from the injected clock, so one verb sees one instant), the caller,
 * the transaction it runs inside (when an outer verb or idempotent() opened one) and the
 * Idempotency-Key guard of the operation (set only by idempotent()). REST, MCP and jobs build it
 * the same way: ctxFromRequest (http/context.ts), ctxFromMcp (mcp.tools.ts), ctxForJob.
 */
export interface Ctx {
  deps: Deps;
  now: Date;
  caller: Caller;
  tx?: Tx | undefined;
  idempotency?: IdempotencyGuard | undefined;
  /** Where a public read goes (the replica or the primary) and what it must include. */
  read?: ReadView | undefined;
}

/**
 * A public read's routing (src/http/read-after.ts): the database its queries go to, the write
 * token the client presented (`OABP-Read-After`), and how to stamp a cached result with the
 * position it is guaranteed to include (docs/decisions.md "Read-your-writes tokens").
 */
export interface ReadView {
  db: Db;
  /** The client's write token: results must include every commit at or below it. */
  after?: bigint | undefined;
  /** Read BEFORE a fill's queries: every commit at or below the value is visible to them. */
  stamp(): Promise<bigint | undefined>;
}

/** A context for `caller` at the clock's current time. */
export function ctxFor(deps: Deps, caller: Caller): Ctx {
  return { deps, now: deps.clock.now(), caller };
}

/**
 * A context for a signed-in address, or for an anonymous reader when there is none (the web
 * pages, which read their cookie session themselves, and tests that call verbs directly).
 */
export function ctxForViewer(deps: Deps, viewer: string | undefined, now = deps.clock.now()): Ctx {
  return {
    deps,
    now,
    caller: viewer ? { kind: "agent", address: viewer, via: "session" } : { kind: "anonymous", reason: "none" },
  };
}

/** Jobs act as nobody in particular; one context per tick, so a tick sees one instant. */
export function ctxForJob(deps: Deps): Ctx {
  return ctxFor(deps, { kind: "job" });
}

/**
 * The database to read with: the context's transaction when there is one (PGlite has one
 * connection), else the public read's routing (the replica when it has caught up), else the primary.
 */
export function dbOf(ctx: Ctx): DbOrTx {
  return ctx.tx ?? ctx.read?.db ?? ctx.deps.database.db;
}

/**
 * What the engine below the verbs takes first (docs/architecture.md "The verb and its context"):
 * the transaction it runs inside (the caller holds the mission row lock), the dependencies and the
 * instant. A full `Ctx & { tx }` is one (withTx's); so is a job's `{ tx, deps, now }`.
 */
export type TxCtx = Pick<Ctx, "deps" | "now"> & { tx: Tx };

/**
 * What the chain workers' steps take first: the dependencies, the step's instant and the chain
 * port. A custody step inside a transaction takes `TxCtx & ChainCtx`.
 */
export type ChainCtx = Pick<Ctx, "deps" | "now"> & { chain: BaseChain };

/** Runs `fn` in the context's transaction, or in a new one (committed when `fn` returns). */
export async function withTx<T>(ctx: Ctx, fn: (tx: Tx, ctx: Ctx & { tx: Tx }) => Promise<T>): Promise<T> {
  if (ctx.tx) return fn(ctx.tx, { ...ctx, tx: ctx.tx });
  let committed: Tx | undefined;
  const out = await ctx.deps.database.db.transaction((tx) => {
    committed = tx;
    return fn(tx, { ...ctx, tx });
  });
  if (committed) wakeEventHubs(ctx.deps.database, committed);
  return out;
}

/** The signed-in agent's address, or undefined (reads answer anonymous callers too). */
export function viewerOf(ctx: Ctx): string | undefined {
  return ctx.caller.kind === "agent" ? ctx.caller.address : undefined;
}

/**
 * The acting agent's address. Routers check identity first with the error the route documents
 * (requireAgent); this is the verb's own guard, so a verb can never run as nobody.
 */
export function agentOf(ctx: Ctx): string {
  if (ctx.caller.kind !== "agent") throw new AppError("UNAUTHORIZED", "an agent identity is required");
  return ctx.caller.address;
}
