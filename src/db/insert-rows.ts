import { getTableColumns, getTableName, is, SQL, type Column } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client";
import { sessionOf } from "./built-once";

/**
 * A hot-path INSERT without per-call query building (bench/README.md "Writes"): drizzle's insert
 * builder walks every column and chunk on every call (a mission's 50-column insert cost ≈ 0.3 ms
 * of CPU to build), though the text depends only on the table, the columns given and the row
 * count. Here the text is built once per such shape, and each call only maps its values with the
 * columns' own encoders (`mapToDriverValue`, as drizzle's builder does) and runs the text on the
 * handle's session — so it is a named statement on Postgres (src/db/named-statements.ts).
 *
 * Same statement as `db.insert(table).values(rows)`: the columns a row leaves out (undefined) take
 * their database defaults. A shape drizzle would fill differently — a value that is SQL, rows
 * whose columns differ, a left-out column with a `$defaultFn`/`$onUpdate` — goes to drizzle's
 * builder. Shapes are bounded per table (MAX_SHAPES); past that, drizzle's builder too.
 *
 * Returns a lazy thenable that starts its statement when first awaited, exactly as a drizzle
 * query builder does, so it keeps its place in a `pipelined` group (src/db/pipelined.ts).
 */
export function insertRows<T extends PgTable>(db: DbOrTx, table: T, rows: T["$inferInsert"][]): PromiseLike<void> {
  let started: Promise<void> | undefined;
  const start = () => (started ??= run(db, table, rows));
  return { then: (ok, fail) => start().then(ok, fail) };
}

const MAX_SHAPES = 32;

interface Shape {
  text: string;
  columns: { key: string; column: Column }[];
}

const shapesOf = new WeakMap<PgTable, Map<string, Shape | null>>();

async function run<T extends PgTable>(db: DbOrTx, table: T, rows: T["$inferInsert"][]): Promise<void> {
  const plain: readonly Record<string, unknown>[] = rows;
  const shape = shapeFor(table, plain);
  if (!shape) {
    if (rows.length > 0) await db.insert(table).values(rows);
    return;
  }
  const params: unknown[] = [];
  for (const row of plain)
    for (const { key, column } of shape.columns) {
      const v = row[key];
      params.push(v === null ? null : column.mapToDriverValue(v));
    }
  // drizzle's own path for a built query (what `db.execute` does after building).
  await sessionOf(db).prepareQuery({ sql: shape.text, params }, undefined, undefined, false).execute();
}

/** The cached text for these rows' shape, or null where drizzle's builder must build it. */
function shapeFor(table: PgTable, rows: readonly Record<string, unknown>[]): Shape | null {
  const [first] = rows;
  if (!first) return null;
  const keys = Object.keys(first).filter((k) => first[k] !== undefined);
  const signature = `${rows.length}:${keys.join(",")}`;
  let shapes = shapesOf.get(table);
  if (!shapes) shapesOf.set(table, (shapes = new Map()));
  let shape = shapes.get(signature);
  if (shape === undefined) {
    if (shapes.size >= MAX_SHAPES) return null;
    shape = build(table, keys, rows.length);
    shapes.set(signature, shape);
  }
  if (!shape) return null;
  // Every row gives the same columns, none of them SQL.
  for (const row of rows) {
    let n = 0;
    for (const k in row) {
      const v = row[k];
      if (v === undefined) continue;
      if (typeof v === "object" && v !== null && is(v, SQL)) return null;
      n++;
    }
    if (n !== keys.length || keys.some((k) => row[k] === undefined)) return null;
  }
  return shape;
}

function build(table: PgTable, keys: string[], count: number): Shape | null {
  const all: Record<string, Column> = getTableColumns(table);
  const given = new Set(keys);
  const filledByDrizzle = Object.entries(all).some(
    ([k, c]) => !given.has(k) && (c.defaultFn !== undefined || c.onUpdateFn !== undefined),
  );
  const columns = keys.flatMap((key) => {
    const column = all[key];
    return column && !column.generated ? [{ key, column }] : [];
  });
  if (filledByDrizzle || columns.length !== keys.length) return null;
  const name = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const width = columns.length;
  const tuples = Array.from(
    { length: count },
    (_, r) => `(${columns.map((_c, i) => `$${r * width + i + 1}`).join(", ")})`,
  );
  return {
    text: `insert into ${name(getTableName(table))} (${columns.map((c) => name(c.column.name)).join(", ")}) values ${tuples.join(", ")}`,
    columns,
  };
}
