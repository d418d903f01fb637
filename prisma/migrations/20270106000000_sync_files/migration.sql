-- Files of a synced sessions folder (lib/sync): one row per file path, naming the session its
-- content is in now and what of the file was imported — its size and mtime when last read, the
-- bytes imported (always whole lines) and the sha256 of those bytes, so a later sync can tell an
-- append (the prefix is unchanged: only the new lines are added) from a rewrite (imported again
-- as a new version, which this row then points at).

-- CreateTable
CREATE TABLE "sync_files" (
    "path" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "mtime_ms" DOUBLE PRECISION NOT NULL,
    "imported_bytes" BIGINT NOT NULL,
    "prefix_sha256" TEXT NOT NULL,
    "settled_entries" INTEGER NOT NULL DEFAULT 0,
    "synced_leaf_id" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "synced_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sync_files_pkey" PRIMARY KEY ("path")
);

-- CreateIndex
CREATE INDEX "sync_files_session_id_idx" ON "sync_files"("session_id");

-- AddForeignKey
ALTER TABLE "sync_files" ADD CONSTRAINT "sync_files_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
