import { getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { AppError, ERROR_STATUS, type ErrorCode } from "../lib/errors";
import { pgCode } from "../lib/idempotency";

// The write functions (drizzle/0042_writes_sql_functions.sql; docs/decisions/storage.md "A write is
// one statement"): a write's rows in one statement, its argument one JSON document.

/** A refusal: MESSAGE the API error code, HINT the message for people, DETAIL the details as JSON. */
const RAISED = "OB001";
/** A gate the write function found closed under its lock; nothing was written (see `gateOf`). */
const GATE = "OB003";
/** Decay is owed by the acting agent: nothing was written; write the decay, then call again. */
export const DECAY_OWED = "OB002";

/** The AppError a write function raised, or `e` itself (any other failure). */
export function fromRaised(e: unknown): unknown {
  if (pgCode(e) !== RAISED) return e;
  const { message, hint, detail } = raisedFields(e, RAISED);
  if (!isErrorCode(message)) return e;
  const details: unknown = detail ? JSON.parse(detail) : undefined;
  return new AppError(message, hint ?? message, isObject(details) ? details : undefined);
}

/** The gate a write function refused at (OB003: DETAIL {gate, …its facts}), or undefined. */
export function gateOf(e: unknown): ({ gate: string } & Record<string, unknown>) | undefined {
  if (pgCode(e) !== GATE) return undefined;
  const facts: unknown = JSON.parse(raisedFields(e, GATE).detail ?? "{}");
  return isObject(facts) && typeof facts.gate === "string" ? { ...facts, gate: facts.gate } : undefined;
}

const isErrorCode = (s: string): s is ErrorCode => s in ERROR_STATUS;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The Postgres error's fields, wherever the driver or drizzle put it (drizzle wraps it as `cause`). */
function raisedFields(e: unknown, code: string): { message: string; hint?: string; detail?: string } {
  let cur: unknown = e;
  for (let i = 0; i < 4 && isObject(cur); i++) {
    if (cur.code === code && typeof cur.message === "string") {
      const hint = typeof cur.hint === "string" ? cur.hint : undefined;
      const detail = typeof cur.detail === "string" ? cur.detail : undefined;
      return { message: cur.message, hint, detail };
    }
    cur = cur.cause;
  }
  return { message: "" };
}

/**
 * A row as a write function takes it: keyed by column name, for `jsonb_populate_record` (dates
 * as ISO text, JSON columns as JSON, arrays as arrays). A column the row leaves out is left out.
 */
export function jsonRow<T extends PgTable>(table: T, row: Partial<T["$inferInsert"]>): Record<string, unknown> {
  const plain: Record<string, unknown> = row;
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table)))
    if (plain[key] !== undefined) out[column.name] = plain[key];
  return out;
}

/** A row a write function returned as `to_jsonb(row)`, as drizzle would have read it. */
export function rowFromJson<T extends PgTable>(table: T, json: unknown): T["$inferSelect"] | undefined {
  if (!isObject(json)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const v = json[column.name];
    out[key] = v === null || v === undefined ? null : column.mapFromDriverValue(v);
  }
  return out;
}
