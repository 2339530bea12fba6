import type { Sql } from "postgres";

/**
 * Every parameterised query on the pool as a named prepared statement, up to a bound of distinct
 * query texts per process (docs/decisions/storage.md "Named statements").
 *
 * drizzle's postgres.js session sends a query that was not built with `.prepare(name)` unnamed
 * (`prepare: false`). postgres.js must then learn the parameter types first: it writes
 * Parse/Describe/Flush, waits for the reply, and only then Bind/Execute/Sync — two round trips a
 * statement, and never pipelined (connection.js `describeFirst`), so a group sent together by
 * `pipelined()` went out one statement at a time, twice each. A named statement is described
 * once per connection; after that each run is one Bind/Execute/Sync, pipelined with its
 * neighbours, and Postgres parses and plans it once instead of on every run.
 *
 * A query text beyond `maxTexts` distinct ones (IN lists and multi-row inserts vary their text
 * with their length) goes out unnamed as before, so neither postgres.js's per-connection cache
 * nor a backend's prepared statements grow without bound; postgres.js also re-prepares on its own
 * when a plan went stale (its retry on `RevalidateCachedQuery`). Off (`prepare: false`) behind a
 * transaction-mode pooler that cannot keep named statements (src/db/client.ts).
 */
export function withNamedStatements(sql: Sql, maxTexts = 2000): Sql {
  const named = new Set<string>();
  const admit = (text: string) => {
    if (named.has(text)) return true;
    if (named.size >= maxTexts) return false;
    named.add(text);
    return true;
  };
  return wrap(sql, admit);
}

type Admit = (text: string) => boolean;
type Options = { prepare?: boolean } & Record<string, unknown>;

/** `unsafe` names its statement; `begin` and `savepoint` hand their bodies a wrapped client. */
function wrap<T extends object>(target: T, admit: Admit): T {
  return new Proxy(target, {
    get: (t, p, receiver) => {
      const value: unknown = Reflect.get(t, p, receiver);
      if (typeof value !== "function") return value;
      if (p === "unsafe")
        return (text: string, params?: unknown[], options?: Options) =>
          Reflect.apply(value, t, [
            text,
            params,
            params?.length && !options?.prepare && admit(text) ? { ...options, prepare: true } : options,
          ]);
      if (p === "begin" || p === "savepoint")
        return (...args: unknown[]) =>
          Reflect.apply(
            value,
            t,
            args.map((a) =>
              typeof a === "function" ? (inner: object) => Reflect.apply(a, undefined, [wrap(inner, admit)]) : a,
            ),
          );
      return value;
    },
  });
}
