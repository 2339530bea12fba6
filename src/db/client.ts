import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import * as schema from "./schema/index";
import { acquireDirLock, type DirLock } from "./lockfile";
import { withPipelinedBegin, withoutPipelining } from "./unpipelined";
import { withNamedStatements } from "./named-statements";
import type { Config } from "../env";

type Schema = typeof schema;
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
  /**
   * Read-your-writes token: the primary's WAL insert position, read after a write
   * committed. undefined on PGlite (one process: its caches are invalidated synchronously).
   */
  writeToken(): Promise<bigint | undefined>;
  /**
   * The position a read about to start on the primary is guaranteed to cover: insert LSN − 1.
   * A write whose token is T is visible to any snapshot taken after this returned a value ≥ T
   * (docs/decisions.md "Read-your-writes tokens").
   */
  primaryStamp(): Promise<bigint | undefined>;
  /** The read replica (DATABASE_READ_URL), when one is configured. */
  replica?: Replica | undefined;
}

/** A streaming replica used by public reads. */
interface Replica {
  db: Db;
  /** pg_last_wal_replay_lsn(): every commit at or below it is visible to snapshots taken after. */
  replayed(): Promise<bigint>;
}

/** "16/B374D848" → bigint (the 64-bit WAL position). */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!m) throw new Error(`not an LSN: ${text}`);
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

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
  /**
   * A streaming replica (hot standby) for public reads; the primary stays the source for writes,
   * transactions, and reads that present a write token the replica has not replayed yet.
   */
  readUrl?: string | undefined;
  /** postgres.js named prepared statements on the query pool (off behind PgBouncer < 1.21). */
  prepare?: boolean;
  /**
   * postgres.js pipelining on the query pool: off behind a transaction-mode pooler, which can
   * lose the reply of a query pipelined behind another (src/db/unpipelined.ts).
   */
  pipeline?: boolean;
  poolMax?: number;
  migrate?: boolean;
  /**
   * Called once the database's own start is under way (the embedded one's wasm compiling on V8's
   * threads, PostgreSQL's connections opening): main.ts loads the rest of the server only then,
   * so its modules do not queue ahead of the database's on the one thread (docs/operations.md
   * "Start time").
   */
  underway?: () => void;
}

/** Opens the database named by the config and applies the committed drizzle migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const migrateFirst = opts.migrate !== false;
  if (opts.url)
    return openPostgres(
      {
        url: opts.url,
        directUrl: opts.directUrl ?? opts.url,
        readUrl: opts.readUrl,
        prepare: opts.prepare ?? true,
        pipeline: opts.pipeline ?? true,
        max: opts.poolMax ?? 10,
      },
      migrateFirst,
      opts.underway,
    );
  // Loaded while the database starts: its import behind a started PGlite waits out the wasm.
  const migrator = migrateFirst ? import("drizzle-orm/pglite/migrator") : undefined;
  migrator?.catch(() => undefined); // awaited below; an error is reported there
  const database = await openPglite(opts.dataDir ?? "memory://", opts.underway);
  if (migrator) {
    try {
      const { migrate } = await migrator;
      await migrate(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
    } catch (e) {
      await database.close();
      throw e;
    }
  }
  return database;
}

/** The database the config names (PGlite in the data dir without DATABASE_URL), migrated. */
export function openConfiguredDatabase(config: Config, underway?: () => void): Promise<Database> {
  return openDatabase({
    url: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    readUrl: config.databaseReadUrl,
    prepare: config.databasePrepare,
    pipeline: config.databasePipeline,
    dataDir: config.databaseUrl ? undefined : path.resolve(config.dataDir),
    poolMax: config.databasePoolMax,
    underway,
  });
}

async function openPostgres(
  o: { url: string; directUrl: string; readUrl: string | undefined; prepare: boolean; pipeline: boolean; max: number },
  migrateFirst: boolean,
  underway?: () => void,
): Promise<Database> {
  const [{ default: postgres }, { drizzle }] = await Promise.all([
    import("postgres"),
    import("drizzle-orm/postgres-js"),
  ]);
  underway?.(); // the rest is network I/O
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
  const client = postgres(o.url, {
    max: o.max,
    prepare: o.prepare,
    onnotice: () => {},
    connect_timeout: 10,
    ...(o.pipeline ? {} : { max_pipeline: 0 }),
  });
  // LISTEN needs a session: on the direct URL a client of its own (postgres.js opens its one
  // listening connection lazily, at the first listen, and re-LISTENs after a reconnect).
  const listener =
    o.directUrl === o.url ? client : postgres(o.directUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  // The replica pool: its own connections (prepared statements as the primary's).
  const reader = o.readUrl
    ? postgres(o.readUrl, { max: o.max, prepare: o.prepare, onnotice: () => {}, connect_timeout: 10 })
    : undefined;
  // drizzle's queries as named statements where the pool may keep them (src/db/named-statements.ts).
  const named = (sql: typeof client) => (o.prepare ? withNamedStatements(sql) : sql);
  const lsnOf = async (q: Promise<{ lsn: string | null }[]>) => {
    const [row] = await q;
    return row?.lsn ? parseLsn(row.lsn) : 0n;
  };
  return {
    db: drizzle(named(o.pipeline ? withPipelinedBegin(client) : withoutPipelining(client)), {
      schema,
    }) as unknown as Db,
    kind: "postgres",
    ping: async () => {
      await client`select 1`;
    },
    close: async () => {
      await client.end({ timeout: 5 });
      if (listener !== client) await listener.end({ timeout: 5 });
      await reader?.end({ timeout: 5 });
    },
    writeToken: startedAfterCall(() => lsnOf(client`select pg_current_wal_insert_lsn()::text as lsn`)),
    primaryStamp: async () => (await lsnOf(client`select pg_current_wal_insert_lsn()::text as lsn`)) - 1n,
    replica: reader && {
      db: drizzle(named(reader), { schema }) as unknown as Db,
      replayed: () => lsnOf(reader`select pg_last_wal_replay_lsn()::text as lsn`),
    },
    listen: async (channel, onNotify, onListen) => {
      const sub = await listener.listen(channel, onNotify, onListen);
      return () => sub.unlisten();
    },
  };
}

/**
 * Shares one run of `read` among concurrent callers, each answered by a run that STARTED after
 * its call (so a write token read for a write that committed before the call covers that commit,
 * docs/decisions.md "Read-your-writes tokens"). At most one run in flight and one queued: the
 * callers that arrive while a run is in flight share the next one. Under N concurrent writes this
 * is one statement per round trip instead of N (bench/README.md "Writes").
 */
export function startedAfterCall<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<unknown> | undefined;
  let queued: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const run = read();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    inFlight = settled;
    void settled.then(() => {
      if (inFlight === settled) inFlight = undefined;
    });
    return run;
  };
  return () => {
    if (!inFlight) return start();
    // The run in flight may have started before this call: wait for it, then share the next.
    queued ??= inFlight.then(() => {
      queued = undefined;
      return start();
    });
    return queued;
  };
}

/**
 * What the embedded Postgres is started with beyond PGlite's own parameters: a 16 MB buffer pool
 * instead of 128 MB. PGlite zeroes the whole pool at every start, in wasm (memset: 14 % of a
 * restart's CPU at 32 MB), and with the data dir on the host's file system the OS page cache keeps
 * the pages a smaller pool drops: random reads over a 40 MB table cost 3–15 % more at 16 MB than
 * at 32 MB, a start ≈ 60 ms less (docs/operations.md "Start time").
 */
export const PGLITE_SETTINGS = ["-c", "shared_buffers=16MB"];

async function openPglite(dataDir: string, underway?: () => void): Promise<Database> {
  const [{ PGlite }, { drizzle }] = await Promise.all([import("@electric-sql/pglite"), import("drizzle-orm/pglite")]);
  let lock: DirLock | undefined;
  let dir = dataDir;
  if (!dataDir.startsWith("memory://")) {
    mkdirSync(dataDir, { recursive: true });
    // PGlite does not lock its data dir: two servers must never share one (docs/design.md).
    lock = acquireDirLock(dataDir);
    dir = path.join(dataDir, "pgdata");
  }
  try {
    const creating = PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
    underway?.();
    const client = await creating;
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
      writeToken: async () => undefined,
      primaryStamp: async () => undefined,
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
