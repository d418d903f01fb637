-- The session list's filters name each project, model and agent with its number of sessions
-- (lib/db/search/session-facets.ts): counted on these indexes (live sessions only for the first
-- two, partial indexes Prisma's schema cannot state), not by reading the sessions table.
CREATE INDEX "sessions_live_cwd_idx" ON "sessions"("cwd") WHERE "deleted_at" IS NULL;
CREATE INDEX "sessions_live_model_idx" ON "sessions"("model") WHERE "deleted_at" IS NULL;
CREATE INDEX "session_sources_format_session_id_idx" ON "session_sources"("format", "session_id");
