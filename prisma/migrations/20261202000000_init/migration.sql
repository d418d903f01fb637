-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "title" TEXT,
    "header" JSONB NOT NULL,
    "cwd" TEXT NOT NULL DEFAULT '',
    "parent_session" TEXT,
    "source_file_name" TEXT,
    "leaf_id" TEXT,
    "entry_count" INTEGER NOT NULL DEFAULT 0,
    "model" TEXT,
    "settings" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_activity_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),
    "title_search" tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce("title", ''))) STORED,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "entries" (
    "session_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "parent_id" TEXT,
    "type" TEXT NOT NULL,
    "timestamp" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" JSONB NOT NULL,
    "role" TEXT,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "label" TEXT,
    "text" TEXT,
    "pruned_original" JSONB,
    "search" tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce("text", ''))) STORED,

    CONSTRAINT "entries_pkey" PRIMARY KEY ("session_id","id")
);

-- CreateIndex
CREATE INDEX "sessions_deleted_at_last_activity_at_idx" ON "sessions"("deleted_at", "last_activity_at" DESC);

-- CreateIndex
CREATE INDEX "sessions_title_search_idx" ON "sessions" USING GIN ("title_search");

-- CreateIndex
CREATE UNIQUE INDEX "entries_session_id_seq_key" ON "entries"("session_id", "seq");

-- CreateIndex
CREATE INDEX "entries_session_id_parent_id_idx" ON "entries"("session_id", "parent_id");

-- CreateIndex
CREATE INDEX "entries_search_idx" ON "entries" USING GIN ("search");

-- AddForeignKey
ALTER TABLE "entries" ADD CONSTRAINT "entries_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
