import { doublePrecision, index, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./types";

// Token buckets shared by every server instance. One row per (policy, client IP or agent). `tokens` is the
// bucket's level at `updated_at`; the level now is refilled from it on each check, so nothing
// ever has to tick. A row whose bucket would be full again carries no information: the purge
// job deletes it (by `updated_at`), so the table holds only recently active callers.
// UNLOGGED (drizzle/0037_writes_unlogged_rate_buckets.sql; docs/decisions/edge.md "Rate-limit buckets
// are unlogged"): drizzle does not model persistence, the migration sets it.
export const rateBuckets = pgTable(
  "rate_buckets",
  {
    key: text("key").primaryKey(),
    tokens: doublePrecision("tokens").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [index("rate_buckets_updated_idx").on(t.updatedAt)],
);
