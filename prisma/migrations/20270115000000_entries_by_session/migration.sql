-- One table per session for the entries (issue #12, import speed): `entries` becomes a table
-- partitioned by LIST ("session_id"), and each session gets its own partition, named
-- arbor_entries_partition(session id) ('entries_' || md5(id)).
--
-- Why: an import's rows went into one table shared by every session, so each row updated its
-- three B-tree indexes one by one (random keys: ~0.2-0.4 s per index per 100k rows) and fired
-- the foreign-key check against "sessions" (one lookup per row). Measured on the bench's 100k-entry
-- session (81 MB): the server's COPY took 2.1-2.7 s, of which 0.4-0.7 s stored the rows.
-- A bulk writer (import, fork) now fills its session's table while it stands alone, with no
-- index and no trigger, and attaches it at the end: PostgreSQL then builds the three indexes in
-- bulk (sorted: ~0.3 s for 100k rows) and skips the partition check (the table's CHECK states it).
--
-- No foreign key to "sessions": attaching a partition to a table with one clones the key onto
-- the partition, which locks "sessions" in SHARE ROW EXCLUSIVE mode until the transaction ends,
-- so every commit of every session (an UPDATE of its "sessions" row) would wait for an import,
-- and two sessions created at once could deadlock. Integrity holds without it: a row can only
-- go into its session's partition, which only the insert of the session row creates (trigger
-- below), and the delete of a session row drops it (the former ON DELETE CASCADE).
--
-- Every insert into "sessions" creates the partition (trigger), attached at once, or standalone
-- when the inserting transaction has set `arbor.entries_partition` to 'detached' (the bulk
-- writers, lib/db/entry-partitions.ts); such a transaction attaches it with
-- arbor_attach_entries_partition before it commits. Attaching takes SHARE UPDATE EXCLUSIVE on
-- "entries": other attaches wait, reads and writes of entries do not.
--
-- The functions run as their owner (SECURITY DEFINER; the owner of "entries", who alone may
-- attach to it), with the search_path of this migration: a role that may only insert sessions
-- still gets their tables, owned like every other table.
--
-- Existing rows move into their sessions' partitions.

ALTER TABLE "entries" DROP CONSTRAINT "entries_session_id_fkey";
ALTER TABLE "entries" RENAME TO "entries_unpartitioned";
ALTER TABLE "entries_unpartitioned" RENAME CONSTRAINT "entries_pkey" TO "entries_unpartitioned_pkey";
ALTER INDEX "entries_session_id_seq_key" RENAME TO "entries_unpartitioned_session_id_seq_key";
ALTER INDEX "entries_session_id_parent_id_idx" RENAME TO "entries_unpartitioned_session_id_parent_id_idx";

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
    "pruned_original" JSONB,

    CONSTRAINT "entries_pkey" PRIMARY KEY ("session_id","id")
) PARTITION BY LIST ("session_id");
ALTER TABLE "entries" ALTER COLUMN "data" SET STORAGE EXTERNAL, ALTER COLUMN "text" SET STORAGE EXTERNAL;

-- CreateIndex
CREATE UNIQUE INDEX "entries_session_id_seq_key" ON "entries"("session_id", "seq");

-- CreateIndex
CREATE INDEX "entries_session_id_parent_id_idx" ON "entries"("session_id", "parent_id");

-- The name of a session's partition (at most 40 characters, whatever the id).
CREATE FUNCTION arbor_entries_partition(session_id text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT
  AS $$ SELECT 'entries_' || md5(session_id) $$;

-- Attaches the session's standalone partition (see above).
CREATE FUNCTION arbor_attach_entries_partition(session_id text) RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
BEGIN
  EXECUTE format('ALTER TABLE entries ATTACH PARTITION %I FOR VALUES IN (%L)', arbor_entries_partition(session_id), session_id);
END $$;

-- A session's partition, standalone and empty: the columns of "entries" and a CHECK of the
-- session id (which lets ATTACH skip scanning it). Returns its name.
CREATE FUNCTION arbor_create_entries_partition(session_id text) RETURNS text
  LANGUAGE plpgsql
  SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
DECLARE
  name text := arbor_entries_partition(session_id);
BEGIN
  EXECUTE format('CREATE TABLE %I (LIKE entries INCLUDING DEFAULTS INCLUDING STORAGE, CONSTRAINT %I CHECK (session_id = %L))',
    name, name || '_session_id_check', session_id);
  RETURN name;
END $$;

-- A new session's partition, attached unless the transaction asked for it standalone.
CREATE FUNCTION arbor_sessions_create_entries() RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
BEGIN
  PERFORM arbor_create_entries_partition(NEW.id);
  IF coalesce(current_setting('arbor.entries_partition', true), '') <> 'detached' THEN
    PERFORM arbor_attach_entries_partition(NEW.id);
  END IF;
  RETURN NULL;
END $$;

-- A deleted session's entries go with it.
CREATE FUNCTION arbor_sessions_drop_entries() RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
BEGIN
  EXECUTE format('DROP TABLE IF EXISTS %I', arbor_entries_partition(OLD.id));
  RETURN NULL;
END $$;

CREATE TRIGGER "sessions_create_entries" AFTER INSERT ON "sessions" FOR EACH ROW EXECUTE FUNCTION arbor_sessions_create_entries();
CREATE TRIGGER "sessions_drop_entries" AFTER DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION arbor_sessions_drop_entries();

-- Existing rows, session by session: each table is filled standalone, then attached.
DO $$
DECLARE
  s record;
BEGIN
  FOR s IN SELECT id FROM sessions LOOP
    EXECUTE format('INSERT INTO %I (session_id, id, parent_id, type, "timestamp", seq, data, role, tokens, label, text, pruned_original)
      SELECT session_id, id, parent_id, type, "timestamp", seq, data, role, tokens, label, text, pruned_original
      FROM entries_unpartitioned WHERE session_id = %L', arbor_create_entries_partition(s.id), s.id);
    PERFORM arbor_attach_entries_partition(s.id);
  END LOOP;
END $$;

DROP TABLE "entries_unpartitioned";
