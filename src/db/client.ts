import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import * as schema from "./schema/index";
import { acquireDirLock, type DirLock } from "./lockfile";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * LISTEN on a channel. `onListen` runs when the subscription is (re)established: after a
   * reconnect, notifications sent in the gap are lost, so listeners must resynchronise there.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>;
}

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

export interface OpenOptions {
  /** postgres://… — when unset the embedded PGlite database is used. */
  url?: string | undefined;
  /** PGlite data directory; "memory://" for an in-memory database (tests). */
  dataDir?: string;
  /**
   * Direct (unpooled) URL when `url` is a transaction-mode pooler: migrations hold a session
   * advisory lock and LISTEN holds a session, neither of which survives transaction pooling.
   */
  directUrl?: string | undefined;
  /** postgres.js named prepared statements on the query pool (off behind PgBouncer < 1.21). */
  prepare?: boolean;
  poolMax?: number;
  migrate?: boolean;
}

/** Opens the database named by the config and applies the committed drizzle migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const migrateFirst = opts.migrate !== false;
  if (opts.url)
    return openPostgres(
      { url: opts.url, directUrl: opts.directUrl ?? opts.url, prepare: opts.prepare ?? true, max: opts.poolMax ?? 10 },
      migrateFirst,
    );
  const database = await openPglite(opts.dataDir ?? "memory://");
  if (migrateFirst) {
    try {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
    } catch (e) {
      await database.close();
      throw e;
    }
  }
  return database;
}

async function openPostgres(
  o: { url: string; directUrl: string; prepare: boolean; max: number },
  migrateFirst: boolean,
): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  if (migrateFirst) {
    // One dedicated connection on the direct URL: the advisory lock that serialises concurrent
    // starts (several servers, parallel test files) is session-scoped, and drizzle's migrator
    // runs several transactions in that session; a transaction-mode pooler would split them.
    const one = postgres(o.directUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
    try {
      const { migrate } = await import("drizzle-orm/postgres-js/migrator");
      await one`select pg_advisory_lock(727274)`;
      await migrate(drizzle(one), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await one.end({ timeout: 5 });
    }
  }
  const client = postgres(o.url, { max: o.max, prepare: o.prepare, onnotice: () => {}, connect_timeout: 10 });
  // LISTEN needs a session: on the direct URL a client of its own (postgres.js opens its one
  // listening connection lazily, at the first listen, and re-LISTENs after a reconnect).
  const listener =
    o.directUrl === o.url ? client : postgres(o.directUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  return {
    db: drizzle(client, { schema }) as unknown as Db,
    kind: "postgres",
    ping: async () => {
      await client`select 1`;
    },
    close: async () => {
      await client.end({ timeout: 5 });
      if (listener !== client) await listener.end({ timeout: 5 });
    },
    listen: async (channel, onNotify, onListen) => {
      const sub = await listener.listen(channel, onNotify, onListen);
      return () => sub.unlisten();
    },
  };
}

async function openPglite(dataDir: string): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  let lock: DirLock | undefined;
  let dir = dataDir;
  if (!dataDir.startsWith("memory://")) {
    mkdirSync(dataDir, { recursive: true });
    // PGlite does not lock its data dir: two servers must never share one (design.md).
    lock = acquireDirLock(dataDir);
    dir = path.join(dataDir, "pgdata");
  }
  try {
    const client = await PGlite.create(dir);
    const db = drizzle(client, { schema }) as unknown as Db;
    return {
      db,
      kind: "pglite",
      ping: async () => {
        await client.query("select 1");
      },
      close: async () => {
        await client.close();
        lock?.release();
      },
      listen: async (channel, onNotify, onListen) => {
        const unlisten = await client.listen(channel, onNotify);
        onListen?.();
        return () => unlisten();
      },
    };
  } catch (e) {
    lock?.release();
    throw e;
  }
}
