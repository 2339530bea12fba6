import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client";
import { isConnectionLost } from "../../src/db/unpipelined";
import { freshPostgresDatabase } from "../helpers/process";
import { onRealPostgres } from "../helpers/db";

// The query pool (src/db/unpipelined.ts): without pipelining, postgres.js's begin() is replaced by
// transactions on a reserved connection. These are the transaction semantics drizzle relies on,
// on a real server with a pool smaller than the load so that connections are shared.
// Both pools: pipelining off (transactions on reserved connections) and on (postgres.js's begin),
// which shares the lost-connection case (patches/postgres+3.4.9.patch).
describe.runIf(onRealPostgres).each([false, true])("query pool, pipelining %s (real Postgres)", (pipeline) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await freshPostgresDatabase("oabp_unpiped");
    drop = db.drop;
    database = await openDatabase({ url: db.url, poolMax: 2, pipeline, prepare: false, migrate: false });
    await database.db.execute(sql`create table t (k text primary key, v int not null)`);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });
  const value = async (k: string) =>
    ((await database.db.execute(sql`select v from t where k = ${k}`)) as unknown as { v: number }[])[0]?.v;

  it("commits, rolls back on a throw, and a failed nested transaction rolls back only its savepoint", async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values ('a', 1)`);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values ('b', 1)`);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`update t set v = 2 where k = 'a'`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.execute(sql`update t set v = 99 where k = 'a'`);
          await inner.transaction(async (deeper) => deeper.execute(sql`insert into t values ('c', 3)`));
          throw new Error("inner");
        }),
      ).rejects.toThrow("inner");
      await tx.transaction(async (inner) => inner.execute(sql`insert into t values ('d', 4)`));
    });
    expect([await value("a"), await value("b"), await value("c"), await value("d")]).toEqual([
      2,
      undefined,
      undefined,
      4,
    ]);
    // A SQL error inside the transaction: rolled back, the connection goes back to the pool usable.
    const divided = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update t set v = 5 where k = 'a'`);
        await tx.execute(sql`select 1/0`);
      })
      .catch((e: { cause?: { code?: string } }) => e.cause?.code);
    expect(divided).toBe("22012"); // division_by_zero
    expect(await value("a")).toBe(2);
  });

  it("60 transactions and 60 single queries on 2 connections all finish, each transaction whole", async () => {
    await database.db.execute(sql`insert into t values ('n', 0)`);
    const txs = Array.from({ length: 60 }, () =>
      database.db.transaction(async (tx) => {
        const [row] = (await tx.execute(sql`select v from t where k = 'n' for update`)) as unknown as { v: number }[];
        await tx.execute(sql`update t set v = ${row!.v + 1} where k = 'n'`);
      }),
    );
    const reads = Array.from({ length: 60 }, (_, i) => database.db.execute(sql`select ${i}::int as i`));
    const got = await Promise.all(reads);
    await Promise.all(txs);
    expect(got.map((r) => (r as unknown as { i: number }[])[0]!.i)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(await value("n")).toBe(60);
  });

  // Without any one of the three fixes of patches/postgres+3.4.9.patch this crashed the process
  // (a write to a null socket) or hung: each was taken out in turn and this test failed.
  it("a transaction whose backend is terminated fails, and the pool goes on serving", async () => {
    const failed = database.db.transaction(async (tx) => {
      const [me] = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { pid: number }[];
      const [killer] = (await database.db.execute(
        sql`select pg_backend_pid() as pid, pg_terminate_backend(${me!.pid}) as ok`,
      )) as unknown as { pid: number; ok: boolean }[];
      expect(killer).toMatchObject({ ok: true }); // from another connection: the reserved one is not shared
      expect(killer!.pid).not.toBe(me!.pid);
      await tx.execute(sql`select 1`);
    });
    const err = await failed.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(isConnectionLost((err as { cause?: unknown }).cause ?? err)).toBe(true);
    for (let i = 0; i < 10; i++) expect(await value("a")).toBe(2);
    await database.db.transaction(async (tx) => tx.execute(sql`update t set v = 7 where k = 'a'`));
    expect(await value("a")).toBe(7);
  });
});
