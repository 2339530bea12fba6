import { eq, sql } from "drizzle-orm";
import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtOnce } from "../../src/db/built-once";
import { pipelined } from "../../src/db/pipelined";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

// src/db/built-once.ts: one built query runs on whichever handle it is given — inside a
// transaction it sees that transaction's uncommitted rows, on the pool it does not — and keeps
// its place in a pipelined group.

const bo = pgTable("bo_test", { id: text("id").primaryKey(), n: integer("n").notNull() });
const byId = builtOnce("bo_by_id", (db) =>
  db
    .select({ id: bo.id, n: bo.n })
    .from(bo)
    .where(eq(bo.id, sql.placeholder("id"))),
);

describe("builtOnce", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ poolMax: 2 });
    await t.database.db.execute(sql`create table bo_test (id text primary key, n integer not null)`);
  });
  afterAll(() => t.dispose());

  it("runs on the handle it is given: a transaction's own rows, the pool's committed ones", async () => {
    const db = t.database.db;
    expect(await byId(db, { id: "a" })).toEqual([]);
    await db.transaction(async (tx) => {
      await tx.insert(bo).values({ id: "a", n: 1 });
      expect(await byId(tx, { id: "a" })).toEqual([{ id: "a", n: 1 }]);
      if (t.database.kind === "postgres") expect(await byId(db, { id: "a" })).toEqual([]); // not committed yet
    });
    expect(await byId(db, { id: "a" })).toEqual([{ id: "a", n: 1 }]);
    // Concurrent transactions, each with its own rows.
    const seen = await Promise.all(
      ["b", "c", "d"].map((id, i) =>
        db.transaction(async (tx) => {
          await tx.insert(bo).values({ id, n: i });
          return byId(tx, { id });
        }),
      ),
    );
    expect(seen).toEqual([[{ id: "b", n: 0 }], [{ id: "c", n: 1 }], [{ id: "d", n: 2 }]]);
  });

  it("keeps its place in a pipelined group", async () => {
    await t.database.db.transaction(async (tx) => {
      const [, rows] = await pipelined(
        () => tx.insert(bo).values({ id: "p", n: 9 }),
        () => byId(tx, { id: "p" }),
      );
      expect(rows).toEqual([{ id: "p", n: 9 }]);
    });
  });
});
