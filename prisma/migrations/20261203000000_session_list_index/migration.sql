-- The session list orders by (last_activity_at DESC, id DESC) and pages on that pair (keyset);
-- the index now covers the tie-breaker so every page is read in index order.

-- DropIndex
DROP INDEX "sessions_deleted_at_last_activity_at_idx";

-- CreateIndex
CREATE INDEX "sessions_deleted_at_last_activity_at_id_idx" ON "sessions"("deleted_at", "last_activity_at" DESC, "id" DESC);
