import { AppError } from "./errors";
import { isId, type IdPrefix } from "./ids";

// Keyset pages over time-ordered ids (lib/ids.ts): a page is fetched with `limit + 1` rows, and
// its `next_cursor` is the page's last id, base64url — the one declaration of that cursor.

export const encodeIdCursor = (id: string): string => Buffer.from(id, "utf8").toString("base64url");

/** The id a `cursor` parameter carries (none for an absent or empty one); 400 when it is not a `prefix` id. */
export function decodeIdCursor(cursor: string | undefined, prefix: IdPrefix): string | undefined {
  if (!cursor) return undefined;
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!isId(prefix, id)) throw new AppError("INVALID_PARAMETER", "cursor is not valid", { field: "cursor" });
  return id;
}

/** The first `limit` of `rows` (fetched with `limit + 1`), and the cursor after the last one's `key` when more follow. */
export function keysetPageBy<R>(
  rows: R[],
  limit: number,
  key: (r: R) => string,
): { page: R[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next_cursor: rows.length > limit && last ? encodeIdCursor(key(last)) : null };
}

/** keysetPageBy on the rows' own id. */
export const keysetPage = <R extends { id: string }>(rows: R[], limit: number) =>
  keysetPageBy(rows, limit, (r) => r.id);
