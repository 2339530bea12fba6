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
): Promise<void> {
  const url = new URL(process.env.DATABASE_URL!);
  const current = (await t.deps.database.db.execute("select current_database() as d" as never)) as unknown as {
    d: string;
  }[];
  url.pathname = `/${current[0]!.d}`;
  const database = await openDatabase({ url: url.toString(), poolMax: 2, migrate: false });
  try {
    await use(createApp({ ...t.deps, database, missionLists: new ResponseCache(listCacheBytes) }));
  } finally {
    await database.close();
  }
}
