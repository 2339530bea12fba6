import { getTableColumns, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../src/db/rows";
import { missions } from "../../src/db/schema/index";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

// drizzle/0042_writes_sql_functions.sql: the mission insert of oabp_create_mission lists its columns
// by hand (the generated `search` and the bigserial `row_version` are the database's own), so a
// column added to the schema must be added there too, or a create would write it NULL.

describe("the write functions", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ poolMax: 2 });
  });
  afterAll(() => t.dispose());

  it("oabp_create_mission inserts every column of missions but the database's own", async () => {
    const [fn] = rowsOf<{ def: string }>(
      await t.database.db.execute(sql`select pg_get_functiondef('oabp_create_mission(jsonb)'::regprocedure) as def`),
    );
    const insert = /INSERT INTO missions \(([^)]*)\)/.exec(fn!.def)?.[1] ?? "";
    const listed = insert.split(",").map((c) => c.trim());
    const wanted = Object.values(getTableColumns(missions))
      .filter((c) => !c.generated && c.name !== "row_version")
      .map((c) => c.name);
    expect([...listed].sort()).toEqual([...wanted].sort());
  });
});
