import { z } from "@hono/zod-openapi";
import type { IdPrefix } from "../lib/ids";
import { isUintString } from "../lib/money";

// Wire building blocks several features' schemas share (the one declaration of each).

/** A tag: trimmed, lower-cased, 1–32 of [a-z0-9._-], starting with a letter or digit: missions, webhook filters, skills, OADP signal layers. */
export const Tag = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{0,31}$/);

/** An amount in base units: a uint256 as a base-10 string (AIP-1 §2). */
export const Uint = z
  .string()
  .refine(isUintString, "must be a uint256 base-10 integer string")
  .openapi({ description: "uint256 in base units, base-10 string", example: "100000000" });

/** A keyset page's query: `limit` (1–100, default `byDefault`) and the previous page's `cursor`. */
export const pageQuery = (byDefault = 50) => ({
  limit: z.coerce.number().int().min(1).max(100).default(byDefault),
  cursor: z.string().max(200).optional(),
});

/**
 * A keyset page's body: `fields` (the items, after any head fields), then `next_cursor` — what
 * the next page's `cursor` takes, null on the last page — then any `tail` fields.
 */
export const pageOf = <S extends z.ZodRawShape, T extends z.ZodRawShape = Record<never, never>>(
  name: string,
  fields: S,
  tail?: T,
) => z.object({ ...fields, next_cursor: z.string().nullable(), ...tail }).openapi(name);

/** A stored record's creation and last-change instants (ISO 8601), in this wire order. */
export const timestamps = { created_at: z.string(), updated_at: z.string() };

/** The example id of a `prefix` record, as /openapi.json shows it. */
export const exampleId = (prefix: IdPrefix) => `${prefix}_01JZ0000000000000000000000`;

/** A record's own id in an answer: a string with the example id of its `prefix`. */
export const idOf = (prefix: IdPrefix) => z.string().openapi({ example: exampleId(prefix) });

// A field and its description in /openapi.json: the kinds most fields are, declared once.
export const str = (description: string) => z.string().openapi({ description });
export const strOrNull = (description: string) => z.string().nullable().openapi({ description });
export const int = (description: string) => z.number().int().openapi({ description });
export const intOrNull = (description: string) => z.number().int().nullable().openapi({ description });
export const bool = (description: string) => z.boolean().openapi({ description });

/** A stored record's answer, the component `name`: its `prefix` id, its `fields`, then its timestamps. */
export const recordOf = <S extends z.ZodRawShape>(name: string, prefix: IdPrefix, fields: S) =>
  z.object({ id: idOf(prefix), ...fields, ...timestamps }).openapi(name);
