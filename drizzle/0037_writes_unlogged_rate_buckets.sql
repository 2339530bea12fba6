-- Rate-limit buckets are UNLOGGED (docs/decisions/edge.md "Rate-limit buckets are unlogged"): a
-- bucket's commit then waits for no WAL flush, so the check before every write costs no fsync
-- of its own. A crash empties the table: every caller starts again from a full bucket.
ALTER TABLE "rate_buckets" SET UNLOGGED;
