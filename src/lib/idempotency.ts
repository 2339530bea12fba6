import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../db/client";
import { idempotencyKeys } from "../db/schema/index";
import { type Ctx, dbOf, withTx } from "./context";
import { AppError } from "./errors";
import { sha256Hex } from "./hash";

export interface StoredResponse {
  status: number;
  body: string; // the exact JSON text sent, so a replay is byte-identical
  replayed: boolean;
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!KEY_RE.test(key))
    throw new AppError("INVALID_PARAMETER", "Idempotency-Key must be 1-255 visible ASCII characters", {
      field: "Idempotency-Key",
    });
  return key;
}

/** Stable JSON (sorted keys) so two equal bodies hash alike whatever their key order. */
export function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.entries(v)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .filter(([, value]) => value !== undefined)
      .map(([k, value]) => `${JSON.stringify(k)}:${stableStringify(value)}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/**
 * The stored answer for (scope, key), looked up BEFORE the request is validated: a retry must get
 * the original response even when validation would now fail (e.g. its deadline has passed since)
 * — otherwise a client would believe a creation failed while its money sits in escrow.
 * Different body → 422. Nothing stored (or still in flight) → undefined: run the request.
 */
async function storedResponse(
  db: DbOrTx,
  opts: { scope: string; key: string | undefined; request: unknown },
): Promise<StoredResponse | undefined> {
  if (opts.key === undefined) return undefined;
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key)));
  if (!row || row.statusCode === "0") return undefined;
  if (row.requestHash !== sha256Hex(stableStringify(opts.request))) {
    throw new AppError("UNPROCESSABLE", "Idempotency-Key was already used with a different request body", {
      reason: "idempotency_key_reused",
    });
  }
  return { status: Number(row.statusCode), body: row.response, replayed: true };
}

/**
 * Runs `work` at most once per (scope, key) — or plainly when no key was sent — inside the caller's transaction (docs/design.md:
 * same key + same body → the stored response; different body → 422; still in flight → 409).
 * Locking: the key row is inserted first; a concurrent request with the same key blocks on the
 * unique index until the first commits, then replays its stored response (so concurrent
 * duplicates get identical answers). If the first is still running after the lock timeout, 409.
 * A failed request rolls back its key row, so a retry runs again.
 */
async function once(
  tx: Tx,
  opts: { scope: string; key: string | undefined; request: unknown; at: Date; lockTimeoutMs?: number },
  work: () => Promise<{ status: number; body: unknown }>,
): Promise<StoredResponse> {
  if (opts.key === undefined) {
    const r = await work();
    return { status: r.status, body: JSON.stringify(r.body), replayed: false };
  }
  const requestHash = sha256Hex(stableStringify(opts.request));
  await tx.execute(sql.raw(`set local lock_timeout = '${Math.max(1, Math.floor(opts.lockTimeoutMs ?? 10_000))}ms'`));
  let inserted: { key: string }[];
  try {
    inserted = await tx
      .insert(idempotencyKeys)
      .values({ scope: opts.scope, key: opts.key, requestHash, statusCode: "0", response: "", createdAt: opts.at })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
  } catch (e) {
    if (pgCode(e) === "55P03")
      throw new AppError("CONFLICT", "a request with this Idempotency-Key is still in flight", {
        reason: "idempotency_in_flight",
      });
    throw e;
  }
  // The timeout was for waiting on a concurrent duplicate only; the work itself waits normally.
  await tx.execute(sql.raw("set local lock_timeout = 0"));
  if (inserted.length === 0) {
    const [row] = await tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key)));
    if (!row)
      throw new AppError("CONFLICT", "a request with this Idempotency-Key is still in flight", {
        reason: "idempotency_in_flight",
      });
    if (row.requestHash !== requestHash) {
      throw new AppError("UNPROCESSABLE", "Idempotency-Key was already used with a different request body", {
        reason: "idempotency_key_reused",
      });
    }
    return { status: Number(row.statusCode), body: row.response, replayed: true };
  }
  const result = await work();
  const body = JSON.stringify(result.body);
  await tx
    .update(idempotencyKeys)
    .set({ statusCode: String(result.status), response: body })
    .where(and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key)));
  return { status: result.status, body, replayed: false };
}

/** The status and JSON body a router answers for a verb's result. */
export interface Answer {
  status: number;
  body: unknown;
}

/**
 * One Idempotency-Key'd operation, carried in the verb's context: the stored row's scope (built
 * by the router from the caller and route, e.g. `${caller} POST /missions` — the same strings as
 * before, so a retry across a deploy still replays), the request it hashes, and the router's
 * mapping of the verb's result to its answer.
 */
export interface IdempotencyGuard {
  key: string;
  scope: string;
  request: unknown;
  answer(result: unknown): Answer;
  /** Set by onceTx once the answer is stored. */
  stored?: StoredResponse;
}

/** A concurrent duplicate finished first: its stored answer is ours (thrown out of the verb's transaction). */
class Replay {
  constructor(readonly stored: StoredResponse) {}
}

/**
 * Runs `verb` at most once per (scope, key) and answers with the exact JSON text stored for it
 * (docs/design.md: same key + same body → the stored response; different body → 422; still in flight
 * → 409). The router chooses the status (`answer`); the verb returns data and opens its writing
 * transaction with onceTx, which claims the key inside it. Without a key the verb simply runs.
 */
export async function idempotent<T>(
  ctx: Ctx,
  op: { key: string | undefined; scope: string; request: unknown; answer: (result: T) => Answer },
  verb: (ctx: Ctx) => Promise<T>,
): Promise<StoredResponse> {
  if (op.key === undefined) {
    const a = op.answer(await verb(ctx));
    return { status: a.status, body: JSON.stringify(a.body), replayed: false };
  }
  // Looked up before the verb validates anything (see storedResponse).
  const stored = await storedResponse(dbOf(ctx), op);
  if (stored) return stored;
  const guard: IdempotencyGuard = {
    key: op.key,
    scope: op.scope,
    request: op.request,
    answer: op.answer as (r: unknown) => Answer,
  };
  try {
    await verb({ ...ctx, idempotency: guard });
  } catch (e) {
    if (e instanceof Replay) return e.stored;
    throw e;
  }
  if (!guard.stored) throw new Error(`idempotent verb for ${op.scope} never called onceTx`);
  return guard.stored;
}

/**
 * The verb's writing transaction (withTx) with the context's Idempotency-Key claimed first inside
 * it (once): the key row and the verb's writes commit together, a failure rolls both back.
 * Without a guard it is withTx.
 */
export async function onceTx<T>(ctx: Ctx, work: (tx: Tx, ctx: Ctx & { tx: Tx }) => Promise<T>): Promise<T> {
  const g = ctx.idempotency;
  if (!g) return withTx(ctx, work);
  return withTx({ ...ctx, idempotency: undefined }, async (tx, inner) => {
    let result: T | undefined;
    const r = await once(tx, { scope: g.scope, key: g.key, request: g.request, at: ctx.now }, async () => {
      result = await work(tx, inner);
      return g.answer(result);
    });
    if (r.replayed) throw new Replay(r);
    g.stored = r;
    return result as T;
  });
}

/** `o[key]` when `o` is an object that has it; errors from drivers are plain objects of any shape. */
const fieldOf = (o: unknown, key: string): unknown =>
  typeof o === "object" && o !== null && key in o ? Reflect.get(o, key) : undefined;

export function pgCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur; i++) {
    const code = fieldOf(cur, "code");
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    cur = fieldOf(cur, "cause");
  }
  return undefined;
}
