import { asc, sql } from "drizzle-orm";
import { integer, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertRows } from "../../src/db/insert-rows";
import { pipelined } from "../../src/db/pipelined";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

// src/db/insert-rows.ts: the cached-text insert writes exactly what drizzle's builder writes
// (encoders, left-out columns taking their defaults, several rows), falls back to the builder for
// SQL values, and keeps its place in a pipelined group.

const ir = pgTable("ir_test", {
  id: text("id").primaryKey(),
  n: integer("n").notNull().default(7),
  at: timestamp("at", { withTimezone: true, mode: "date" }),
  tags: text("tags").array(),
  data: jsonb("data").$type<{ a: number }>(),
  big: numeric("big"),
});

describe("insertRows", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ poolMax: 2 });
    await t.database.db.execute(
      sql`create table ir_test (id text primary key, n integer not null default 7, at timestamptz, tags text[], data jsonb, big numeric)`,
    );
  });
  afterAll(() => t.dispose());
  const read = (prefix: string) =>
    t.database.db
      .select()
      .from(ir)
      .where(sql`${ir.id} like ${prefix + "%"}`)
      .orderBy(asc(ir.id));

  it("writes what drizzle's builder writes, for one row and several, twice (the cached text)", async () => {
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    const rows = (p: string) => [
      { id: `${p}1`, n: 1, at, tags: ["x", "y z"], data: { a: 1 }, big: "123456789012345678901234567890" },
      { id: `${p}2`, n: 2, at: null, tags: [], data: null, big: null },
    ];
    const db = t.database.db;
    await db.insert(ir).values(rows("d"));
    await insertRows(db, ir, rows("f"));
    await db.transaction(async (tx) => {
      await insertRows(tx, ir, rows("g"));
    });
    const strip = (r: { id: string }[]) => r.map(({ id, ...rest }) => ({ id: id.slice(1), ...rest }));
    expect(strip(await read("f"))).toEqual(strip(await read("d")));
    expect(strip(await read("g"))).toEqual(strip(await read("d")));
    // A left-out column takes its database default, as with the builder.
    await insertRows(db, ir, [{ id: "h1" }]);
    expect((await read("h"))[0]).toMatchObject({ n: 7, at: null, tags: null });
  });

  it("an SQL value goes through drizzle's builder; a failure rolls the transaction back", async () => {
    const db = t.database.db;
    await insertRows(db, ir, [{ id: "s1", n: sql`40 + 2` as unknown as number }]);
    expect((await read("s"))[0]!.n).toBe(42);
    await expect(
      db.transaction(async (tx) => {
        await insertRows(tx, ir, [{ id: "r1" }]);
        await insertRows(tx, ir, [{ id: "r1" }]); // duplicate key
      }),
    ).rejects.toThrow();
    expect(await read("r")).toEqual([]);
  });

  it("keeps its place in a pipelined group: a later statement sees the row", async () => {
    await t.database.db.transaction(async (tx) => {
      const [, seen] = await pipelined(
        () => insertRows(tx, ir, [{ id: "p1", n: 5 }]),
        () =>
          tx
            .select()
            .from(ir)
            .where(sql`${ir.id} = 'p1'`),
      );
      expect(seen).toHaveLength(1);
    });
  });
});
