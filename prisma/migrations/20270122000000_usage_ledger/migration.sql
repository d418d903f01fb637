-- The usage ledger (docs/usage.md): one row per model call a session records (an assistant
-- message with usage, a compaction or branch summary with its summary call's usage), written
-- with the entries that carry it (commit, import, fork), priced when written.
--
-- `dedupe_key` names the provider's response: Claude Code's message id + request id where the
-- file has them, else the row's content (time, model, tokens, entry id), so a fork's copies and
-- a resumed Claude session's copied records name the same response. Of the rows sharing a key,
-- exactly one in a live (not deleted) session has `counted` = true; the reports sum only those.
-- Deleting a session hands its counted rows to another live copy; restoring takes back the keys
-- no live session counts.

-- CreateTable
CREATE TABLE "usage_rows" (
    "session_id" TEXT NOT NULL,
    "entry_id" TEXT COLLATE "C" NOT NULL,
    "kind" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "input" BIGINT NOT NULL DEFAULT 0,
    "output" BIGINT NOT NULL DEFAULT 0,
    "cache_read" BIGINT NOT NULL DEFAULT 0,
    "cache_write" BIGINT NOT NULL DEFAULT 0,
    "reasoning" BIGINT NOT NULL DEFAULT 0,
    "recorded_cost_micros" BIGINT,
    "cost_micros" BIGINT,
    "price_source" TEXT NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "counted" BOOLEAN NOT NULL,

    CONSTRAINT "usage_rows_pkey" PRIMARY KEY ("session_id","entry_id")
);

-- CreateIndex
CREATE INDEX "usage_rows_dedupe_key_idx" ON "usage_rows"("dedupe_key");

-- CreateIndex
CREATE INDEX "usage_rows_counted_at_idx" ON "usage_rows"("counted", "at");

-- AddForeignKey
ALTER TABLE "usage_rows" ADD CONSTRAINT "usage_rows_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
