import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { parseLsn, type Database } from "../db/client";
import type { ReadView } from "../lib/context";
import { AppError } from "../lib/errors";
import type { AppEnv } from "./types";

/** The write token's header, on write responses and on the reads that want to see the write. */
export const READ_AFTER_HEADER = "OABP-Read-After";
/** The same token as a cookie (browsers and clients that keep cookies send it back by themselves). */
export const READ_AFTER_COOKIE = "oabp_read_after";
/** Which database served a routed read ("replica" | "primary"); only when a replica is configured. */
export const READ_FROM_HEADER = "OABP-Read-From";
/** How long the cookie is kept: a replica or a list cache lagging longer than this is an incident. */
const COOKIE_MAX_AGE_S = 60;
const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;

/**
 * Public read routes whose queries may go to the replica (dbOf(ctx) reads, no writes): the
 * mission list, a mission, its submissions. Everything else reads the primary.
 */
const REPLICA_READS = /^(\/api)?\/missions(\/mis_[^/]+(\/submissions)?)?$/;

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/**
 * Read-your-writes across instances and replicas.
 * - A successful write answers `OABP-Read-After: <primary WAL position>` (header and cookie).
 * - A read presenting that token (header, else cookie) sees the write on any instance: it goes to
 *   the replica only once the replica has replayed that position, and the list cache serves only
 *   entries stamped at or past it (ResponseCache.get's `fresh`).
 * PGlite (one process) has neither a replica nor other instances: nothing to do.
 */
export function readAfter(database: Database, skip: (path: string) => boolean): MiddlewareHandler<AppEnv> {
  if (database.kind !== "postgres") return (_c, next) => next();
  const replica = database.replica;
  let replayed = 0n; // the replica's last known replay position (only grows)
  const caughtUp = async (after: bigint): Promise<boolean> => {
    if (!replica) return false;
    if (replayed >= after) return true;
    try {
      const r = await replica.replayed();
      if (r > replayed) replayed = r;
    } catch {
      return false; // replica unreachable: the primary answers
    }
    return replayed >= after;
  };
  const primaryView = (after: bigint | undefined): ReadView => ({
    db: database.db,
    after,
    stamp: () => database.primaryStamp(),
  });
  const replicaView: ((after: bigint | undefined) => ReadView) | undefined = replica
    ? (after) => ({ db: replica.db, after, stamp: () => replica.replayed() })
    : undefined;

  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") {
      const header = c.req.header(READ_AFTER_HEADER);
      let after: bigint | undefined;
      if (header !== undefined) {
        if (!LSN.test(header.trim()))
          throw new AppError("INVALID_PARAMETER", `${READ_AFTER_HEADER} must be a token from a write response`, {
            field: READ_AFTER_HEADER,
          });
        after = parseLsn(header.trim());
      } else {
        const cookie = getCookie(c, READ_AFTER_COOKIE);
        if (cookie && LSN.test(cookie)) after = parseLsn(cookie); // a bad cookie is ignored
      }
      if (replicaView && REPLICA_READS.test(c.req.path)) {
        const toReplica = after === undefined || (await caughtUp(after));
        c.set("read", toReplica ? replicaView(after) : primaryView(after));
        c.header(READ_FROM_HEADER, toReplica ? "replica" : "primary");
      } else if (after !== undefined) {
        c.set("read", primaryView(after));
      }
      return next();
    }
    await next();
    if (method === "OPTIONS" || c.res.status >= 400 || skip(c.req.path)) return;
    const token = await database.writeToken().catch(() => undefined);
    if (token === undefined) return;
    const text = formatLsn(token);
    c.header(READ_AFTER_HEADER, text);
    c.header(
      "Set-Cookie",
      `${READ_AFTER_COOKIE}=${text}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; SameSite=Lax; HttpOnly`,
      {
        append: true,
      },
    );
  };
}
