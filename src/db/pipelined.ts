import { pgCode } from "../lib/idempotency";

/**
 * Runs a transaction's statements as one round trip (docs/decisions/storage.md "Writes in few round
 * trips"): every thunk is called at once, in argument order, its query started, and the results
 * come back as a tuple. Use it for statements of ONE transaction (`tx`) that do not need each other's results
 * in JavaScript; a later statement still sees what an earlier one wrote, because they run in order.
 * An argument may be an async function's promise that goes on to more statements after its first
 * (a ledger transfer: lock, then append): its first statement goes out with the others.
 *
 * The order rule: a thunk returns a query builder, or calls an async function whose FIRST await
 * is its first statement (a query builder, or a nested `pipelined`); anything awaited before that
 * would send the statement later, out of order. drizzle starts a query when it is first awaited,
 * and every start goes the same depth down to the driver, so starts in one microtask round reach
 * the connection in the order they were made. On Postgres, postgres.js writes them onto the
 * transaction's connection back to back (pipelining) and Postgres runs them in that order; behind
 * a transaction-mode pooler (src/db/unpipelined.ts) and on PGlite they queue on the one connection
 * and run one by one, in the same order.
 *
 * Every argument is settled before this returns or throws: a statement still in flight after the
 * transaction ended would otherwise run outside it. If one fails, the statements after it fail
 * too (the transaction is aborted, SQLSTATE 25P02); the error thrown is the first in argument order
 * that is not such a follow-on failure, and the transaction rolls back.
 */
export async function pipelined<T extends readonly unknown[]>(
  ...statements: { [K in keyof T]: () => T[K] }
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  // Each thunk called here, in order. A query builder is started in the next microtask, as
  // `await builder` inside an async function starts it: every first statement of the group is
  // then started in the same microtask round, in argument order (see the rule above).
  const started = statements.map(
    (run) =>
      new Promise<unknown>((resolve, reject) => {
        const x: unknown = run();
        if (x instanceof Promise) x.then(resolve, reject);
        else if (isThenable(x)) queueMicrotask(() => x.then(resolve, reject));
        else resolve(x);
      }),
  );
  const settled = await Promise.allSettled(started);
  const failed: unknown[] = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
  if (failed.length > 0) throw failed.find((e) => pgCode(e) !== "25P02") ?? failed[0];
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}

/** A query builder: a thenable that starts its statement when `then` is first called. */
function isThenable(x: unknown): x is PromiseLike<unknown> {
  return typeof x === "object" && x !== null && "then" in x && typeof x.then === "function";
}
