import { getTableColumns, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../src/db/rows";
import { missions, submissions } from "../../src/db/schema/index";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

// drizzle/0042_writes_sql_functions.sql: the inserts of oabp_create_mission and oabp_submit list
// their columns by hand (the mission's generated `search` and bigserial `row_version` are the
// database's own), so a column added to the schema must be added there too, or a write would
// leave it NULL.

describe("the write functions", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ poolMax: 2 });
  });
  afterAll(() => t.dispose());

  const inserted = async (fn: string, table: string) => {
    const [row] = rowsOf<{ def: string }>(
      await t.database.db.execute(sql`select pg_get_functiondef(${`${fn}(jsonb)`}::regprocedure) as def`),
    );
    const list = new RegExp(`INSERT INTO ${table} \\(([^)]*)\\)`).exec(row?.def ?? "")?.[1] ?? "";
    return list
      .split(",")
      .map((c) => c.trim())
      .sort();
  };
  const insertable = (table: typeof missions | typeof submissions) =>
    Object.values(getTableColumns(table))
      .filter((c) => !c.generated && c.name !== "row_version")
      .map((c) => c.name)
      .sort();

  it("oabp_create_mission inserts every column of missions but the database's own", async () => {
    expect(await inserted("oabp_create_mission", "missions")).toEqual(insertable(missions));
  });

  it("oabp_submit inserts every column of submissions", async () => {
    expect(await inserted("oabp_submit", "submissions")).toEqual(insertable(submissions));
  });

  // drizzle/0044_award_in_one_statement.sql: the answered row's numeric(78,0) columns go out as
  // text (a JSON number would round an amount past 2^53); a new money column must be listed too.
  it("oabp_record_award answers every money column of missions as text", async () => {
    const [row] = rowsOf<{ def: string }>(
      await t.database.db.execute(sql`select pg_get_functiondef('oabp_record_award(jsonb)'::regprocedure) as def`),
    );
    const listed = [...(row?.def ?? "").matchAll(/'(\w+)', (\w+)::text/g)]
      .filter((m) => m[1] === m[2])
      .map((m) => m[1]);
    const money = Object.values(getTableColumns(missions))
      .filter((c) => c.columnType === "PgNumeric")
      .map((c) => c.name);
    expect(money).toContain("reward_amount");
    expect(listed.sort()).toEqual(money.sort());
  });
});
