-- The session list's first page read every live session: at 10,000 sessions a sequential scan
-- and a top-N sort (2.4–3 ms, growing with the sessions), where it should read 51 index entries
-- (0.1 ms). An index led by deleted_at does not give `WHERE deleted_at IS NULL ORDER BY
-- last_activity_at DESC, id DESC` its order: the planner takes `IS NULL` as a condition on the
-- first column, not as an equality that fixes it, so the rows come out in no useful order.
-- Partial indexes of live sessions, in the list's orders (by activity, by cost), do; the trash
-- (deleted sessions, newest deletion first) gets its own.
DROP INDEX "sessions_deleted_at_last_activity_at_id_idx";
DROP INDEX "sessions_deleted_at_cost_micros_id_idx";
CREATE INDEX "sessions_live_activity_idx" ON "sessions"("last_activity_at" DESC, "id" DESC) WHERE "deleted_at" IS NULL;
CREATE INDEX "sessions_live_cost_idx" ON "sessions"("cost_micros" DESC, "id" DESC) WHERE "deleted_at" IS NULL;
CREATE INDEX "sessions_trash_idx" ON "sessions"("deleted_at" DESC, "id") WHERE "deleted_at" IS NOT NULL;
