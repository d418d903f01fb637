-- Imported files kept byte for byte ("Download original"), whatever their format: one row per
-- session with the file's facts, and the bytes in chunks of about 1 MB, written inside the
-- import's transaction as the file streams in.

-- CreateTable
CREATE TABLE "session_sources" (
    "session_id" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "sha256" TEXT NOT NULL DEFAULT '',
    "records" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "session_sources_pkey" PRIMARY KEY ("session_id")
);

-- CreateTable
CREATE TABLE "session_source_chunks" (
    "session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "session_source_chunks_pkey" PRIMARY KEY ("session_id","seq")
);

-- AddForeignKey
ALTER TABLE "session_sources" ADD CONSTRAINT "session_sources_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_source_chunks" ADD CONSTRAINT "session_source_chunks_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session_sources"("session_id") ON DELETE CASCADE ON UPDATE CASCADE;
