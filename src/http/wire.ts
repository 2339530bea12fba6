import { z } from "@hono/zod-openapi";

// Wire building blocks several features' schemas share (the one declaration of each).

/** A tag: trimmed, lower-cased, 1–32 of [a-z0-9._-], starting with a letter or digit: missions, webhook filters, skills, OADP signal layers. */
export const Tag = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{0,31}$/);

/** A keyset page's query: `limit` (1–100, default `byDefault`) and the previous page's `cursor`. */
export const pageQuery = (byDefault = 50) => ({
  limit: z.coerce.number().int().min(1).max(100).default(byDefault),
  cursor: z.string().max(200).optional(),
});

/**
 * A keyset page's body: `fields` (the items, after any head fields), then `next_cursor` — what
 * the next page's `cursor` takes, null on the last page.
 */
export const pageOf = <S extends z.ZodRawShape>(name: string, fields: S) =>
  z.object({ ...fields, next_cursor: z.string().nullable() }).openapi(name);

/** A stored record's creation and last-change instants (ISO 8601), in this wire order. */
export const timestamps = { created_at: z.string(), updated_at: z.string() };
