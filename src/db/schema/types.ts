import { sql, type SQL } from "drizzle-orm";
import { customType, numeric, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";

/** uint256-capable money column: numeric(78,0), surfaced as a base-10 string. */
export const money = (name: string) => numeric(name, { precision: 78, scale: 0 });
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** A string as an SQL literal, written into the schema's DDL (not a parameter). */
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** `column in ('a', 'b', …)` over a vocabulary list (db/vocabulary.ts), for CHECK constraints. */
export const oneOf = (column: AnyPgColumn, values: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(values.map(literal).join(", "))})`;

// Partial indexes' predicates: the rows in one state (a queue, the live ones), or those where a
// nullable column is set (due times, optional keys).
export const equals = (column: AnyPgColumn, value: string): SQL => sql`${column} = ${sql.raw(literal(value))}`;
export const isSet = (column: AnyPgColumn): SQL => sql`${column} is not null`;

/** A row's creation and last-change instants, set by the writing verb (no database default). */
export const timestamps = () => ({ createdAt: ts("created_at").notNull(), updatedAt: ts("updated_at").notNull() });
