-- A synced file's stat digest (lib/sync): for a session spread over many files (opencode's
-- storage), a digest of every file's name, size and mtime when last read, so a sync with nothing
-- changed tells so from stat alone, without reading a file. NULL for a session that is one file
-- (its size and mtime say it) and for rows saved before this column: such a session's files are
-- read once more on the next sync, which then stores the digest.

-- AlterTable
ALTER TABLE "sync_files" ADD COLUMN "stat_digest" TEXT;
