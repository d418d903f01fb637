-- `usage_rows` without its foreign key to "sessions"; a deleted session's rows go with it by the
-- trigger that already deletes its entries and full-text rows (as entry_search, migration
-- 20270127000001_entry_search_unchecked).
--
-- Why: the key was checked row by row, and an import writes a ledger row per model call (16,000
-- for the 30 MB session of bench/history.ts): ~80 ms of the server's CPU, a quarter of the
-- ledger's write (docs/benchmarks-history.md, IMP2). No row can lose its session:
-- - every writer holds the session's row: import and fork created it in their transaction, a
--   commit updates it in the same statement (lib/db/store/commit-sql.ts), and the ledger's
--   rebuild (lib/db/usage/ledger-backfill.ts) writes rows for a session that has none;
-- - and every insert also creates its sessions' usage_rollup rows (the statement trigger of
--   20270123000000_usage_rollup; a session without rows has none yet), whose foreign key is
--   checked once per session, bucket and model: an insert for a session deleted meanwhile fails
--   there, as it failed on this key before.
-- The delete order is unchanged in effect: the ledger rows' statement trigger finds neither the
-- session (gone) nor its rollup rows (their own key's cascade ran first), so it changes nothing;
-- the session's sums left usage_daily before its row was deleted (sessions_drop_usage).

ALTER TABLE "usage_rows" DROP CONSTRAINT "usage_rows_session_id_fkey";

CREATE OR REPLACE FUNCTION arbor_sessions_delete_entries() RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
BEGIN
  DELETE FROM entries WHERE session_id = OLD.id;
  DELETE FROM entry_search WHERE session_id = OLD.id;
  DELETE FROM usage_rows WHERE session_id = OLD.id;
  RETURN NULL;
END $$;
