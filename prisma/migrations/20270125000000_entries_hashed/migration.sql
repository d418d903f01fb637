-- `entries` in a fixed number of tables (16, by a hash of the session id) instead of one table
-- per session (migration 20270115000000_entries_by_session).
--
-- Why: a statement that reads every session's entries (the usage ledger's checks, a search of
-- the sessions not yet indexed, any query not naming one session id) locked every session's
-- table and its three indexes until its transaction ended. PostgreSQL's lock table holds
-- max_locks_per_transaction x max_connections locks in all (6,400 by default), so at ~6,400
-- sessions such a statement failed with "out of shared memory", and each new session paid for
-- a CREATE TABLE and an ATTACH (~7 tiny imports a second). With 16 partitions every statement
-- locks at most 16 tables and 48 indexes, whatever the number of sessions, and a session is a
-- row. A session's rows share a partition, so its reads keep their index scans on
-- (session_id, ...) in a table 1/16 of the whole.
--
-- Still no foreign key to "sessions" (as before: no per-row check during an import's COPY);
-- deleting a session row deletes its entries (trigger below, the former DROP TABLE).
--
-- Moving the rows reads and drops every per-session table in this one transaction, so a
-- database with thousands of sessions needs max_locks_per_transaction raised for this run (the
-- embedded server starts with 1024, lib/postgres/embedded.ts: room for ~20,000 sessions here).

DROP TRIGGER IF EXISTS "sessions_create_entries" ON "sessions";
DROP TRIGGER IF EXISTS "sessions_drop_entries" ON "sessions";
DROP FUNCTION IF EXISTS arbor_sessions_create_entries();
DROP FUNCTION IF EXISTS arbor_sessions_drop_entries();
DROP FUNCTION IF EXISTS arbor_create_entries_partition(text);
DROP FUNCTION IF EXISTS arbor_attach_entries_partition(text);
DROP FUNCTION IF EXISTS arbor_entries_partition(text);

ALTER TABLE "entries" RENAME TO "entries_by_session";
ALTER TABLE "entries_by_session" RENAME CONSTRAINT "entries_pkey" TO "entries_by_session_pkey";
ALTER INDEX "entries_session_id_seq_key" RENAME TO "entries_by_session_session_id_seq_key";
ALTER INDEX "entries_session_id_parent_id_idx" RENAME TO "entries_by_session_session_id_parent_id_idx";

-- CreateTable
CREATE TABLE "entries" (
    "session_id" TEXT COLLATE "C" NOT NULL,
    "id" TEXT COLLATE "C" NOT NULL,
    "parent_id" TEXT COLLATE "C",
    "type" TEXT NOT NULL,
    "timestamp" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" JSON NOT NULL,
    "role" TEXT,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "label" TEXT,
    "text" TEXT,
    "pruned_original" JSONB
) PARTITION BY HASH ("session_id");
ALTER TABLE "entries" ALTER COLUMN "data" SET STORAGE EXTERNAL, ALTER COLUMN "text" SET STORAGE EXTERNAL;

-- entries_p00 … entries_p15.
DO $$
BEGIN
  FOR i IN 0..15 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF entries FOR VALUES WITH (MODULUS 16, REMAINDER %s)', 'entries_p' || lpad(i::text, 2, '0'), i);
  END LOOP;
END $$;

-- Existing rows, before the indexes (built once, sorted, below).
INSERT INTO "entries" ("session_id", "id", "parent_id", "type", "timestamp", "seq", "data", "role", "tokens", "label", "text", "pruned_original")
SELECT "session_id", "id", "parent_id", "type", "timestamp", "seq", "data", "role", "tokens", "label", "text", "pruned_original"
FROM "entries_by_session";

DROP TABLE "entries_by_session";

ALTER TABLE "entries" ADD CONSTRAINT "entries_pkey" PRIMARY KEY ("session_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "entries_session_id_seq_key" ON "entries"("session_id", "seq");

-- CreateIndex
CREATE INDEX "entries_session_id_parent_id_idx" ON "entries"("session_id", "parent_id");

-- A deleted session's entries go with it.
CREATE FUNCTION arbor_sessions_delete_entries() RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
BEGIN
  DELETE FROM entries WHERE session_id = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER "sessions_delete_entries" AFTER DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION arbor_sessions_delete_entries();
