-- `entry_search` without its foreign key to "sessions"; a deleted session's rows go with it by
-- the trigger that already deletes its entries (migration 20270125000000_entries_hashed).
--
-- Why: the key was checked row by row. An import writes a row per entry with text in one
-- statement (lib/db/import/search-rows.ts), and for the 30 MB session of bench/history.ts
-- (37,000 rows) those checks cost 0.5–0.7 s, as much again as the rows and their GIN index
-- together (measured in one run, 2026-12-05). Every writer of these rows holds the session's row
-- instead: the import and the fork created it in their own transaction, a commit updates it in
-- the same statement (lib/db/store/commit-sql.ts), and the build after an import locks it
-- (FOR KEY SHARE, once per statement, lib/db/search/search-index.ts), so a session deleted
-- meanwhile leaves no row behind.

ALTER TABLE "entry_search" DROP CONSTRAINT "entry_search_session_id_fkey";

CREATE OR REPLACE FUNCTION arbor_sessions_delete_entries() RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
BEGIN
  DELETE FROM entries WHERE session_id = OLD.id;
  DELETE FROM entry_search WHERE session_id = OLD.id;
  RETURN NULL;
END $$;
