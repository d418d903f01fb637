-- usage_rows with two indexes besides its primary key instead of three: every ledger row an
-- import writes (16,000 for the 30 MB session of bench/history.ts) was inserted into each.
--
-- - usage_rows_counted_at_idx (counted, at) goes: no statement reads by it (the one range read,
--   lib/db/usage/ledger-read.ts readLedger, is only ever called for every counted row, a scan
--   and a sort either way; the Usage page reads usage_daily and usage_rollup).
-- - usage_rows_dedupe_key_idx (dedupe_key) becomes an index of the uncounted rows only: the
--   counted ones are already in the partial unique index usage_rows_counted_key, so each row is
--   in exactly one of the two. The one read of every row of a key (releaseCounted's heir, in
--   lib/db/usage/ledger-write.ts) looks for uncounted rows only: the key's counted row is the
--   one being released.

DROP INDEX "usage_rows_counted_at_idx";

DROP INDEX "usage_rows_dedupe_key_idx";

CREATE INDEX "usage_rows_uncounted_key_idx" ON "usage_rows"("dedupe_key") WHERE NOT "counted";
