import type { Entry } from "./security-matrix.rules";
import { EXCHANGE_ROWS } from "./security-matrix.exchanges";
import { MISSION_ROWS } from "./security-matrix.missions";

// Per-operation fixtures of the security matrix (security-matrix.int.test.ts), keyed by
// "METHOD /path" exactly as openapi/openapi.json spells it. A secured operation without a row here
// fails the matrix's coverage test. One table, its rows written in two files by route group.

/** The groups' rows as one table; a key in two groups is a mistake that a spread would hide. */
function oneTable(...groups: Record<string, Entry>[]): Record<string, Entry> {
  const table: Record<string, Entry> = {};
  for (const group of groups)
    for (const [key, entry] of Object.entries(group)) {
      if (key in table) throw new Error(`two security matrix rows for ${key}`);
      table[key] = entry;
    }
  return table;
}

export const MATRIX = oneTable(MISSION_ROWS, EXCHANGE_ROWS);
