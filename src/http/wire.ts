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
