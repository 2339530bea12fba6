import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client";
import { pgCode } from "../../src/lib/idempotency";

// The embedded database in a data dir, as a server, the worker and `npm start` open it: what the
// server relies on from PGlite holds there as in the tests' in-memory databases — SQLSTATE codes,
// transactions, LISTEN/NOTIFY, concurrent callers, a clean close and a restart on the same dir.

const dir = mkdtempSync(path.join(tmpdir(), "oabp-pglite-datadir-"));
let database: Database;
const rows = async <T>(q: ReturnType<typeof sql>) => ((await database.db.execute(q)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  database = await openDatabase({ dataDir: dir, migrate: false });
  await database.db.execute(sql`create table t (id int primary key, v text not null)`);
}, 120_000);
afterAll(async () => {
  await database?.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe("the embedded database in a data dir", () => {
  it("answers statements with PGlite's parsers (numbers, timestamps as drizzle asks, arrays)", async () => {
    const [r] = await rows<{ n: number; big: string; at: string; xs: number[] }>(
      sql`select 1 + 1 as n, 12345678901234567890::numeric as big, '2026-12-07T00:00:00Z'::timestamptz as at, array[1,2,3] as xs`,
    );
    expect(r).toMatchObject({ n: 2, big: "12345678901234567890", xs: [1, 2, 3] });
    expect(String(r?.at)).toContain("2026-12-07");
  });

  it("a constraint violation keeps its SQLSTATE, and the connection goes on", async () => {
    await database.db.execute(sql`insert into t values (1, 'a')`);
    const err = await database.db.execute(sql`insert into t values (1, 'b')`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(pgCode(err)).toBe("23505");
    expect(await rows<{ v: string }>(sql`select v from t where id = 1`)).toEqual([{ v: "a" }]);
  });

  it("a transaction that throws rolls back; one that returns commits", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values (2, 'rolled back')`);
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (3, 'kept')`);
    });
    expect(await rows<{ id: number }>(sql`select id from t where id in (2, 3) order by id`)).toEqual([{ id: 3 }]);
  });

  it("many callers at once: each statement answered in turn, none lost", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => 100 + i);
    await Promise.all(ids.map((id) => database.db.execute(sql`insert into t values (${id}, ${`v${id}`})`)));
    const [c] = await rows<{ n: number }>(sql`select count(*)::int as n from t where id >= 100`);
    expect(c?.n).toBe(50);
  });

  it("LISTEN: a NOTIFY reaches the listener, after its commit", async () => {
    const got: string[] = [];
    const stop = await database.listen("oabp_datadir_test", (p) => got.push(p));
    await database.db.execute(sql`select pg_notify('oabp_datadir_test', 'hello')`);
    await expect.poll(() => got).toEqual(["hello"]);
    await stop();
    await database.db.execute(sql`select pg_notify('oabp_datadir_test', 'after unlisten')`);
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(["hello"]);
  });

  it("closes cleanly, refuses statements after, and the data is there at the next start", async () => {
    await database.close();
    await expect(database.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: "PGlite is closed" } });
    database = await openDatabase({ dataDir: dir, migrate: false });
    const [c] = await rows<{ n: number }>(sql`select count(*)::int as n from t`);
    expect(c?.n).toBe(52); // ids 1, 3 and the fifty
  }, 60_000);
});
