import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pipelined } from "../../src/db/pipelined";
import { withNamedStatements } from "../../src/db/named-statements";
import { onRealPostgres } from "../helpers/db";
import { freshPostgresDatabase } from "../helpers/process";

// src/db/named-statements.ts: drizzle's parameterised queries become named prepared statements on
// the connection (parsed once, then one Bind/Execute each, pipelined), up to a bound of distinct
// texts; beyond it they go out unnamed. Observed in the server's own pg_prepared_statements, on
// one connection so that every query of the test shares it.
describe.runIf(onRealPostgres)("named statements (real Postgres)", () => {
  let client: postgres.Sql;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const fresh = await freshPostgresDatabase("oabp_named");
    drop = fresh.drop;
    client = postgres(fresh.url, { max: 1, onnotice: () => {} });
    await client.unsafe("create table n (k text primary key, v int not null)");
  });
  afterAll(async () => {
    await client?.end({ timeout: 5 });
    await drop?.();
  });

  const prepared = async (db: ReturnType<typeof drizzle>) =>
    (await db.execute(
      sql`select statement, generic_plans + custom_plans as runs from pg_prepared_statements`,
    )) as unknown as { statement: string; runs: number }[];

  it("names each parameterised text once and reuses it, in and out of transactions", async () => {
    const db = drizzle(withNamedStatements(client, 10));
    for (let i = 0; i < 3; i++) await db.execute(sql`insert into n (k, v) values (${`a${i}`}, ${i})`);
    await db.transaction(async (tx) => {
      // A group sent together: the same text three more times, and a second text.
      await pipelined(
        () => tx.execute(sql`insert into n (k, v) values (${"b0"}, ${0})`),
        () => tx.execute(sql`insert into n (k, v) values (${"b1"}, ${1})`),
        () => tx.execute(sql`insert into n (k, v) values (${"b2"}, ${2})`),
        () => tx.execute(sql`select v from n where k = ${"b2"}`),
      );
      await tx.transaction(async (inner) => inner.execute(sql`select v from n where k = ${"a1"}`));
    });
    const stmts = await prepared(db);
    const insert = stmts.filter((s) => s.statement.startsWith("insert into n"));
    expect(insert).toHaveLength(1);
    expect(Number(insert[0]!.runs)).toBe(6);
    const select = stmts.filter((s) => s.statement.startsWith("select v from n"));
    expect(select).toHaveLength(1);
    expect(Number(select[0]!.runs)).toBe(2);
  });

  it("sends texts beyond the bound unnamed, with the same results", async () => {
    const db = drizzle(withNamedStatements(client, 1));
    const before = (await prepared(db)).length;
    await db.execute(sql`select v from n where v = ${1} and k <> ${"z"}`);
    const rows = (await db.execute(sql`select v from n where v >= ${1} order by k limit ${2}`)) as unknown as {
      v: number;
    }[];
    expect(rows.map((r) => r.v)).toEqual([1, 2]);
    const after = await prepared(db);
    expect(after.length).toBe(before + 1);
    expect(after.some((s) => s.statement.includes("v >= $1"))).toBe(false);
  });
});
