import { pgCode } from "../lib/idempotency";

/**
 * Runs a transaction's statements as one round trip (docs/decisions.md "Writes in few round
 * trips"): every thunk is called at once, in argument order, its query started, and the results
 * come back as a tuple. Use it for statements of ONE transaction (`tx`) that do not need each other's results
 * in JavaScript; a later statement still sees what an earlier one wrote, because they run in order.
 * An argument may be an async function's promise that goes on to more statements after its first
 * (a ledger transfer: lock, then append): its first statement goes out with the others.
 *
 * drizzle starts a query when it is first awaited, synchronously down to the driver (thunks, so
 * that a query builder and an async function's first statement start in the order written). On Postgres, postgres.js writes them onto the
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
  // Each one started here, in order: `then` sends a drizzle query (an async function's promise
  // has already sent its first statement when its thunk returns).
  const started = statements.map(
    (run) =>
      new Promise<unknown>((resolve, reject) => {
        const x = run() as unknown;
        if (x !== null && typeof x === "object" && typeof (x as PromiseLike<unknown>).then === "function")
          (x as PromiseLike<unknown>).then(resolve, reject);
        else resolve(x);
      }),
  );
  const settled = await Promise.allSettled(started);
  const failed = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as unknown] : []));
  if (failed.length > 0) throw failed.find((e) => pgCode(e) !== "25P02") ?? failed[0];
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
