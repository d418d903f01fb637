-- Full-text data of entries moves out of `entries` into its own table (issue #12, import speed).
-- The generated `entries.search` column made every imported row compute its tsvector and update
-- a GIN index inside the import's COPY (about 60 % of the server's time). Now an import stores
-- only the rows; `entry_search` is filled afterwards in set-based steps (lib/db/search-index.ts),
-- and `sessions.search_seq` says how far: entries with seq < search_seq have their row here
-- (when their text is not null). Search matches the rest with the same to_tsvector on the fly
-- (lib/db/session-list.ts), so results never depend on whether the index is built yet. A commit
-- to a fully indexed session indexes its own entries in the same statement.

-- CreateTable
CREATE TABLE "entry_search" (
    "session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "search" tsvector NOT NULL,

    CONSTRAINT "entry_search_pkey" PRIMARY KEY ("session_id","seq")
);

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN "search_seq" INTEGER NOT NULL DEFAULT 0;

-- Existing sessions keep their vectors.
INSERT INTO "entry_search" ("session_id", "seq", "search")
SELECT "session_id", "seq", "search" FROM "entries" WHERE "text" IS NOT NULL;
UPDATE "sessions" SET "search_seq" = "entry_count";

-- DropIndex
DROP INDEX "entries_search_idx";

-- AlterTable
ALTER TABLE "entries" DROP COLUMN "search";

-- CreateIndex
CREATE INDEX "entry_search_search_idx" ON "entry_search" USING GIN ("search");

-- AddForeignKey
ALTER TABLE "entry_search" ADD CONSTRAINT "entry_search_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Cheaper storage of the large values an import writes (measured in bench/import-profile.ts):
-- pglz compression cost more server time than any other part of storing the rows and saved
-- about 10 % of the entries' size (jsonb compresses badly); values over ~2 kB are now stored
-- out of line uncompressed. An imported file's original bytes are gzip-compressed by the app
-- (on Node's thread pool, while the import runs) instead of by pglz in the server: smaller
-- and off the server's critical path. `compression` tells the reader how to restore them.
-- `data` becomes json (the JSON text as written, validated) instead of jsonb: no query needs
-- jsonb's binary form (a prune converts the few rows it rewrites), and rendering jsonb back to
-- text was most of the server's time of opening a session (lib/db/read-model: about half of it).
-- The type change comes first: it resets the column's storage.
ALTER TABLE "entries" ALTER COLUMN "data" SET DATA TYPE JSON USING "data"::json;
ALTER TABLE "entries" ALTER COLUMN "data" SET STORAGE EXTERNAL, ALTER COLUMN "text" SET STORAGE EXTERNAL;
ALTER TABLE "session_source_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;

-- AlterTable
ALTER TABLE "session_sources" ADD COLUMN "compression" TEXT NOT NULL DEFAULT 'none';
