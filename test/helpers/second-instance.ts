import { createApp } from "../../src/app";
import { openDatabase } from "../../src/db/client";
import { ResponseCache } from "../../src/lib/response-cache";
import type { TestApp } from "./app";

/**
 * A second app on the test app's own Postgres database, as another instance of one deployment runs:
 * its own database handle (so its own document cache) and a list cache of `listCacheBytes`
 * (0: off). Closed once `use` is done. Real Postgres only: PGlite has one connection.
 */
export async function withSecondInstance(
  t: TestApp,
  listCacheBytes: number,
  use: (other: ReturnType<typeof createApp>) => Promise<void>,
  opts: { replicaOfItself?: boolean } = {},
): Promise<void> {
  const url = (await databaseUrlOf(t)).toString();
  const database = await openDatabase({
    url,
    readUrl: opts.replicaOfItself ? url : undefined,
    poolMax: 2,
    migrate: false,
  });
  try {
    await use(createApp({ ...t.deps, database, missionLists: new ResponseCache(listCacheBytes) }));
  } finally {
    await database.close();
  }
}

/**
 * A second instance whose DATABASE_READ_URL is the test database itself: a stand-in replica that
 * has replayed nothing (pg_last_wal_replay_lsn() is null on a primary), for the write-token paths.
 */
export const withReplicaOf = (t: TestApp, use: (other: ReturnType<typeof createApp>) => Promise<void>) =>
  withSecondInstance(t, 0, use, { replicaOfItself: true });

async function databaseUrlOf(t: TestApp): Promise<URL> {
  const url = new URL(process.env.DATABASE_URL!);
  const current = (await t.deps.database.db.execute("select current_database() as d" as never)) as unknown as {
    d: string;
  }[];
  url.pathname = `/${current[0]!.d}`;
  return url;
}
