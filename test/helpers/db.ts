import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase, type Database } from "../../src/db/client";

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
 */
export async function createTestDatabase(opts: { poolMax?: number } = {}): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ dataDir: "memory://" });
    return { database, dispose: () => database.close() };
  }
  const name = `oabp_t_${randomBytes(6).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString(), poolMax: opts.poolMax ?? 10 });
  return {
    database,
    async dispose() {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
