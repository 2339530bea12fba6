import type { PgSession } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client";

interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}
/**
 * A handle's drizzle session (internal to drizzle, stable across its drivers): what runs a built
 * query, and the driver client it runs on — the pool's, or the transaction's connection.
 */
export function sessionOf(db: DbOrTx): PgSession & { client: unknown } {
  return (db as unknown as { session: PgSession & { client: unknown } }).session;
}

/**
 * A query with placeholders, built ONCE per driver and run on any handle's session — the pool's
 * or a transaction's (bench/README.md "Writes"). drizzle's `.prepare()` binds a query to the
 * handle it was built on, so inside a transaction every call rebuilt it: a 50-column mission
 * select walked every column on each submit and award. Here the built query (text, parameter
 * slots, result fields) is kept per session class, and each call runs it through an object that
 * differs from it only in the driver client (the caller's session's). The results are mapped by
 * drizzle as before.
 *
 * Returns a lazy thenable that starts the statement when first awaited, as a drizzle query
 * builder does, so it keeps its place in a `pipelined` group (src/db/pipelined.ts).
 */
export function builtOnce<R>(
  name: string,
  build: (db: DbOrTx) => { prepare(name: string): Prepared<R> },
): (db: DbOrTx, values: Record<string, unknown>) => PromiseLike<R> {
  const byDriver = new Map<unknown, Prepared<R>>();
  return (db, values) => {
    let started: Promise<R> | undefined;
    const start = () => {
      if (started) return started;
      const session = sessionOf(db);
      const kind: unknown = Object.getPrototypeOf(session);
      let q = byDriver.get(kind);
      if (!q) byDriver.set(kind, (q = build(db).prepare(name)));
      // Its own client, everything else the built query's; `execute` reads the client before
      // its first await, so concurrent calls never see each other's.
      const run: Prepared<R> = Object.create(q, { client: { value: session.client } });
      return (started = run.execute(values));
    };
    return { then: (ok, fail) => start().then(ok, fail) };
  };
}
