import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { openDatabase, PGLITE_SETTINGS } from "../../src/db/client";

// The embedded database starts with a smaller buffer pool (src/db/client.ts PGLITE_SETTINGS,
// docs/operations.md "Start time"): PGlite zeroes the pool at every start, so its size is start
// time. Checked on a data dir on disk, opened twice as a restart opens it.
const pool = /^shared_buffers=(\w+)$/.exec(PGLITE_SETTINGS.find((s) => s.startsWith("shared_buffers=")) ?? "")?.[1];
const dir = mkdtempSync(path.join(tmpdir(), "oabp-pglite-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("the embedded database restarts on its data dir with the smaller buffer pool", async () => {
  for (const start of ["first", "restart"]) {
    const database = await openDatabase({ dataDir: dir, migrate: start === "first" });
    try {
      const rows = (await database.db.execute(sql`show shared_buffers`)) as unknown as { rows?: unknown[] };
      expect(Number.parseInt(pool ?? "", 10), "MB, below Postgres' own 128 MB").toBeLessThan(128);
      expect(JSON.stringify(rows), start).toContain(`"shared_buffers":"${pool}"`);
    } finally {
      await database.close();
    }
  }
}, 120_000);
