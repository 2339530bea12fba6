import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Tx } from "../../src/db/client";
import { openDatabase } from "../../src/db/client";
import { pipelined } from "../../src/db/pipelined";
import { pgCode } from "../../src/lib/idempotency";
import { createTestDatabase, onRealPostgres, type TestDatabase } from "../helpers/db";
import { freshPostgresDatabase } from "../helpers/process";

// src/db/pipelined.ts: one transaction's statements sent together still run in the order written
// (a later one sees what an earlier one wrote), whether a thunk returns a query builder or calls
// an async function whose first await is its statement; a failure rolls everything back and is
// the error thrown, and nothing of the group runs after the transaction ended.

const rows = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows);

/** An async helper in the style of the services: its first await is its statement. */
async function countOf(tx: Tx, k: string): Promise<number> {
  const r = await tx.execute(sql`select count(*)::int as n from pl where k = ${k}`);
  return rows<{ n: number }>(r)[0]!.n;
}
async function insertVia(tx: Tx, k: string, v: number): Promise<void> {
  await tx.execute(sql`insert into pl (k, v) values (${k}, ${v})`);
}

function suite(open: () => Promise<{ database: Database; dispose: () => Promise<void> }>) {
  let database: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ database, dispose } = await open());
    await database.db.execute(sql`create table pl (k text not null, v int not null)`);
  });
  afterAll(async () => {
    await dispose?.();
  });

  it("runs statements in argument order: builders and async helpers mixed", async () => {
    const got = await database.db.transaction(async (tx) =>
      pipelined(
        () => countOf(tx, "a"), // 0: nothing yet
        () => tx.execute(sql`insert into pl (k, v) values ('a', 1)`),
        () => countOf(tx, "a"), // 1: sees the builder's insert before it
        () => insertVia(tx, "a", 2),
        () => tx.execute(sql`select count(*)::int as n from pl where k = 'a'`), // 2
        () => undefined,
      ),
    );
    expect(got[0]).toBe(0);
    expect(got[2]).toBe(1);
    expect(rows<{ n: number }>(got[4])[0]!.n).toBe(2);
    expect(got[5]).toBeUndefined();
  });

  it("a failing statement rolls the group back and is the error thrown, not the follow-on failures", async () => {
    let later = false;
    const err = await database.db
      .transaction(async (tx) =>
        pipelined(
          () => insertVia(tx, "b", 1),
          () => tx.execute(sql`select 1 / 0`),
          () => countOf(tx, "b"),
          // An async helper that goes on after its first statement: settled before the rollback.
          async () => {
            await countOf(tx, "b").catch(() => 0);
            later = true;
          },
        ),
      )
      .catch((e: unknown) => e);
    expect(pgCode(err)).toBe("22012"); // division_by_zero: the cause, not a 25P02 after it
    expect(later).toBe(true);
    const [n] = rows<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pl where k = 'b'`));
    expect(n!.n).toBe(0);
  });

  it("a JavaScript error after a statement rolls it back", async () => {
    await expect(
      database.db.transaction(async (tx) =>
        pipelined(
          () => insertVia(tx, "c", 1),
          async () => {
            await countOf(tx, "c");
            throw new Error("refused");
          },
        ),
      ),
    ).rejects.toThrow("refused");
    const [n] = rows<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pl where k = 'c'`));
    expect(n!.n).toBe(0);
  });
}

describe("pipelined (the test database)", () => {
  suite(async () => {
    const t: TestDatabase = await createTestDatabase();
    return { database: t.database, dispose: t.dispose };
  });
});

// Behind a transaction-mode pooler the pool does not pipeline (src/db/unpipelined.ts): same order.
describe.runIf(onRealPostgres)("pipelined, pool without pipelining (real Postgres)", () => {
  suite(async () => {
    const db = await freshPostgresDatabase("oabp_pipelined");
    const database = await openDatabase({ url: db.url, poolMax: 2, pipeline: false, prepare: false, migrate: false });
    return {
      database,
      dispose: async () => {
        await database.close();
        await db.drop();
      },
    };
  });
});
