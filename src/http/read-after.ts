import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, type KeyObject } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { parseLsn, type Database } from "../db/client";
import type { ReadView } from "../lib/context";
import { AppError } from "../lib/errors";
import type { AppEnv } from "./types";
import { isReadRequest } from "./read-requests";

/** The write token's header, on write responses and on the reads that want to see the write. */
const READ_AFTER_HEADER = "OABP-Read-After";
/** The same token as a cookie (browsers and clients that keep cookies send it back by themselves). */
const READ_AFTER_COOKIE = "oabp_read_after";
/** Which database served a routed read ("replica" | "primary"); only when a replica is configured. */
const READ_FROM_HEADER = "OABP-Read-From";
/** How long the cookie is kept: a replica or a list cache lagging longer than this is an incident. */
const COOKIE_MAX_AGE_S = 60;
const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;

/**
 * Public read routes whose queries may go to the replica (dbOf(ctx) reads, no writes): the
 * mission list, a mission, its submissions. Everything else reads the primary.
 */
const REPLICA_READS = /^(\/api)?\/missions(\/mis_[^/]+(\/submissions)?)?$/;

/**
 * The cookie's value is sealed (AES-256-GCM, docs/operations.md "The read-after cookie is
 * sealed"): a client can neither read the WAL position in it nor forge or alter one. The key is
 * derived (HKDF-SHA-256) from the active receipt signing key, which every instance of a deployment
 * shares (OABP_RECEIPT_KEYS); a cookie it cannot open — forged, tampered, another key's — is
 * ignored like a missing one. The header stays the plain position: clients order those.
 */
export interface CookieSeal {
  seal(lsn: bigint): string;
  open(value: string): bigint | undefined;
}

const SEAL_PREFIX = "v1.";
const SEALED = /^v1\.[A-Za-z0-9_-]{48}$/; // 12-byte nonce, 8-byte position, 16-byte tag

export function cookieSeal(receiptKey: KeyObject): CookieSeal {
  const seed = receiptKey.export({ format: "der", type: "pkcs8" }).subarray(-32);
  const key = Buffer.from(hkdfSync("sha256", seed, "oabp", "oabp read-after cookie v1", 32));
  return {
    seal(lsn) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const plain = Buffer.alloc(8);
      plain.writeBigUInt64BE(lsn);
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return SEAL_PREFIX + sealed.toString("base64url");
    },
    open(value) {
      if (!SEALED.test(value)) return undefined;
      const raw = Buffer.from(value.slice(SEAL_PREFIX.length), "base64url");
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(20));
        return Buffer.concat([decipher.update(raw.subarray(12, 20)), decipher.final()]).readBigUInt64BE();
      } catch {
        return undefined; // forged, tampered or sealed with another key
      }
    },
  };
}

function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/**
 * Read-your-writes on a read replica.
 * - With a replica (DATABASE_READ_URL), a successful write answers `OABP-Read-After: <primary WAL
 *   position>` (header) and the same position sealed in a cookie (cookieSeal). Without one every
 *   read goes to the primary, where the missions epoch already keeps each instance's lists exact
 *   (docs/decisions/storage.md "Exact list caches across instances"), so a write answers no token:
 *   the position's query, the seal and the cookie would buy nothing.
 * - A read presenting that token (header, else cookie) sees the write on any instance: it goes to
 *   the replica only once the replica has replayed that position, and the list cache serves only
 *   entries stamped at or past it (ResponseCache.get's `fresh`).
 * PGlite (one process) has neither a replica nor other instances: nothing to do.
 */
export function readAfter(
  database: Database,
  skip: (path: string) => boolean,
  seal: CookieSeal,
): MiddlewareHandler<AppEnv> {
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

  // The schema this instance runs on must be on the replica before it answers: the primary's
  // position at the instance's first routed read (after its migrations) is a floor under every
  // token, so a migration the replica has not replayed yet is never a missing table there
  // (docs/operations.md "Read replica"). Unknown (the primary did not answer): the primary reads,
  // and a later read asks again. Concurrent first reads share one question.
  let floor: bigint | undefined;
  let asking: Promise<bigint | undefined> | undefined;
  const routed = async (
    c: Context<AppEnv>,
    next: () => Promise<void>,
    view: (after: bigint | undefined) => ReadView,
    after: bigint | undefined,
  ) => {
    floor ??= await (asking ??= database
      .writeToken()
      .catch(() => undefined)
      .finally(() => (asking = undefined)));
    const toReplica = floor !== undefined && (await caughtUp(after !== undefined && after > floor ? after : floor));
    c.set("read", toReplica ? view(after) : primaryView(after));
    c.header(READ_FROM_HEADER, toReplica ? "replica" : "primary");
    return next();
  };
  const written = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    await next();
    if (c.res.status >= 400 || skip(c.req.path) || isReadRequest(c.req.method, c.req.path)) return;
    const token = await database.writeToken().catch(() => undefined);
    if (token !== undefined) answerToken(c, token, seal);
  };
  // A read that goes to the primary (no replica, or not a routed path) takes no promise of its own.
  return (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") {
      const after = readToken(c, seal);
      if (replicaView && REPLICA_READS.test(c.req.path)) return routed(c, next, replicaView, after);
      if (after !== undefined) c.set("read", primaryView(after));
      return next();
    }
    return method === "OPTIONS" || !replica ? next() : written(c, next);
  };
}

/** The reader's write token: the header (400 when malformed), else the sealed cookie (ignored when bad). */
function readToken(c: Context<AppEnv>, seal: CookieSeal): bigint | undefined {
  const header = c.req.header(READ_AFTER_HEADER);
  if (header === undefined) {
    const cookie = getCookie(c, READ_AFTER_COOKIE);
    return cookie ? seal.open(cookie) : undefined;
  }
  if (!LSN.test(header.trim()))
    throw new AppError("INVALID_PARAMETER", `${READ_AFTER_HEADER} must be a token from a write response`, {
      field: READ_AFTER_HEADER,
    });
  return parseLsn(header.trim());
}

/** A write's answer carries its position: the header, and the same sealed in a cookie. */
function answerToken(c: Context<AppEnv>, token: bigint, seal: CookieSeal): void {
  c.header(READ_AFTER_HEADER, formatLsn(token));
  c.header(
    "Set-Cookie",
    `${READ_AFTER_COOKIE}=${seal.seal(token)}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; SameSite=Lax; HttpOnly`,
    { append: true },
  );
}
