import type { ReservedSql, Sql } from "postgres";

/**
 * A postgres.js pool that never pipelines, for a transaction-mode pooler (docs/operations.md
 * "Behind a transaction-mode pooler").
 *
 * postgres.js writes a query onto a busy connection without waiting for the reply before it.
 * With `prepare: false` every query with parameters opens with Parse/Describe/Flush and no Sync.
 * A pooler that returns its server connection at the previous query's ReadyForQuery (PgBouncer
 * before 1.21 counts Syncs, not outstanding messages; Supavisor likewise) loses that reply, and
 * the request waits forever: this was the PgBouncer e2e test's hang under load (porsager/postgres#970).
 *
 * The pool is opened with `max_pipeline: 0`. postgres.js's own `begin()` then cannot reserve
 * its connection, because it only does so on the pipelining path (connection.js `execute`:
 * `sent.length < max_pipeline && onexecute(…)`), and it fails with UNSAFE_TRANSACTION. So
 * transactions run here on a connection taken with `sql.reserve()`, with savepoints for nested
 * transactions (drizzle's `tx.transaction`). Everything else is the pool itself.
 */
export function withoutPipelining(sql: Sql): Sql {
  return onReserved(sql, false);
}

/**
 * The pipelining pool's transactions, BEGIN sent with the body's first statements
 * (docs/decisions/storage.md "BEGIN goes out with the first statements"). postgres.js's own
 * `begin()` awaits BEGIN's reply before it runs the body: a round trip of its own per
 * transaction. Here the body starts at once on the reserved connection, so BEGIN and the first
 * statements leave in one socket write, and Postgres runs them in order. Savepoints, ROLLBACK on
 * any failure and the lost-connection rule are the reserved transaction's, as above.
 */
export function withPipelinedBegin(sql: Sql): Sql {
  return onReserved(sql, true);
}

function onReserved(sql: Sql, beginWithBody: boolean): Sql {
  const begin = (a: unknown, b?: unknown) => {
    const fn = (typeof a === "function" ? a : b) as Body;
    const mode = typeof a === "string" ? a.replace(/[^a-z ]/gi, "") : "";
    return transaction(sql, mode, fn, beginWithBody);
  };
  return new Proxy(sql, { get: (target, p, receiver) => (p === "begin" ? begin : Reflect.get(target, p, receiver)) });
}

type Body = (tx: ReservedSql) => unknown;

/** Errors after which the connection is gone: a reserved one is then not handed back. */
export function isConnectionLost(e: unknown): boolean {
  const err = e as { code?: unknown; errno?: unknown; cause?: unknown } | null;
  if (!err || typeof err !== "object") return false;
  // drizzle wraps the driver's error in a DrizzleQueryError (`cause`).
  if (err.cause !== undefined && err.cause !== e && isConnectionLost(err.cause)) return true;
  const code = typeof err.code === "string" ? err.code : "";
  // postgres.js CONNECTION_* / CONNECT_TIMEOUT, socket errors (errno), SQLSTATE class 08
  // (connection exception) and 57P01–57P03 (the server is shutting the session down).
  return code.startsWith("CONNECT") || err.errno !== undefined || code.startsWith("08") || /^57P0[123]$/.test(code);
}

async function transaction(sql: Sql, mode: string, fn: Body, beginWithBody: boolean): Promise<unknown> {
  const conn = await sql.reserve();
  let alive = true;
  // With the body: BEGIN is only queued here; its reply is awaited before COMMIT. BEGIN on an idle
  // reserved session fails only when the session itself does (connection lost, server shutting
  // down), and then every statement queued behind it on the same socket fails too.
  const began = conn.unsafe(`begin ${mode}`).execute();
  began.catch(() => {}); // awaited below; a rejection before that is not unhandled
  try {
    if (!beginWithBody) await began;
    const result = await inScope(conn, fn);
    await began;
    await conn.unsafe("commit");
    return result;
  } catch (e) {
    // Always ROLLBACK: the body's error may come from another connection. On a lost connection
    // it is refused at once (patches/postgres+3.4.9.patch), and the connection is not handed back.
    await conn.unsafe("rollback").catch((r: unknown) => (alive = !isConnectionLost(r)));
    throw e;
  } finally {
    // A lost connection stays with the pool's closed ones (postgres.js reconnects it on demand);
    // handing it back would put a dead socket among the open connections.
    if (alive) conn.release();
  }
}

/** Runs the body with `savepoint` on the reserved connection (names unique within the transaction). */
function inScope(conn: ReservedSql, fn: Body): Promise<unknown> {
  let n = 0;
  const savepoint = async (a: unknown, b?: unknown) => {
    const body = (typeof a === "function" ? a : b) as Body;
    const name = `s${n++}`;
    await conn.unsafe(`savepoint ${name}`);
    try {
      const result = await run(body);
      await conn.unsafe(`release savepoint ${name}`);
      return result;
    } catch (e) {
      // A failure here (the connection lost) surfaces at the outer COMMIT or ROLLBACK.
      await conn.unsafe(`rollback to savepoint ${name}`).catch(() => {});
      throw e;
    }
  };
  Object.assign(conn, { savepoint });
  const run = async (body: Body) => {
    const x = body(conn);
    return Array.isArray(x) ? Promise.all(x) : x;
  };
  return run(fn);
}
