import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { openDatabase, PGLITE_SETTINGS, type Database, type Db } from "../../src/db/client";
import * as schema from "../../src/db/schema/index";

/** True when the suite runs on a real Postgres server (DATABASE_URL set), else embedded PGlite. */
export const onRealPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDatabase {
  database: Database;
  /** Close the connection and drop the per-test database. */
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: a new Postgres database on the server named by
 * DATABASE_URL, or an in-memory PGlite instance. No test shares data with another.
 * Both start as a copy of the template test/setup/template-db.ts migrated once per run; without
 * one (a helper used outside the integration/e2e projects) they migrate as before.
 */
export async function createTestDatabase(opts: { poolMax?: number } = {}): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const template = pgliteTemplate();
    const database = template ? await openPgliteCopy(template) : await openDatabase({ dataDir: "memory://" });
    return { database, dispose: () => database.close() };
  }
  const name = `oabp_t_${randomBytes(6).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(postgresCreateStatement(name));
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString(), poolMax: opts.poolMax ?? 10, migrate: !postgresTemplate() });
  return {
    database,
    async dispose() {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/** `create database <name>`, as a copy of the run's migrated template when there is one. */
export function postgresCreateStatement(name: string): string {
  const template = postgresTemplate();
  return template ? `create database ${name} template ${template}` : `create database ${name}`;
}

function postgresTemplate(): string | undefined {
  return inject("postgresTemplate");
}

function pgliteTemplate(): string | undefined {
  return inject("pgliteTemplate");
}

// One read per worker; every PGlite copy is loaded from the same bytes.
let templateBytes: { path: string; blob: Blob } | undefined;

/** An in-memory PGlite started from the template's data dir (`loadDataDir`), no initdb, no migrations. */
async function openPgliteCopy(file: string): Promise<Database> {
  if (templateBytes?.path !== file) templateBytes = { path: file, blob: new Blob([readFileSync(file)]) };
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const client = await PGlite.create({
    loadDataDir: templateBytes.blob,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
  });
  // The same shape as src/db/client.ts openPglite for "memory://" (no data dir, so no dir lock).
  return {
    db: drizzle(client, { schema }) as unknown as Db,
    kind: "pglite",
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
    listen: async (channel, onNotify, onListen) => {
      const unlisten = await client.listen(channel, onNotify);
      onListen?.();
      return () => unlisten();
    },
    writeToken: async () => undefined,
    primaryStamp: async () => undefined,
  };
}
