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
 * - `import/line-reader` from bench/import-child.ts: its `parse` mode measures the parser's memory with
 *   the store not loaded.
 * - `client` in scripts/lint-rules.test.ts: its lint fixtures are strings naming it, not imports.
 */
export * from "./errors";
export type { SessionMeta, SessionSummary } from "./store/session-rows";
export { findLiveSession, isLiveSession, readLiveSession } from "./store/live-session";
export { findSessionMeta, findStoredEntries, getSessionMeta, type LoadedTree, loadEntries, loadPath, loadTree } from "./store/read";
export { type CommitInput, type CommitResult, commitEntries } from "./store/commit";
export { appendCompaction, appendEntries, branch, branchWithSummary, resetLeaf, setLabel, setPin } from "./store/write";
export { createSession, type ForkResult, forkSession, renameSession, restoreSession, softDeleteSession } from "./store/session";
export { applyPrune, getPrunedOriginals, type PrunedEntry, undoPrune } from "./store/prune";
export { listSessions, type ListSessionsInput, type SessionPage, toPrefixTsQuery } from "./search/session-list";
export { type ImportOptions, type ImportProgress, type ImportResult, importSession } from "./import/import";
export { buildSearchIndex, scheduleSearchIndex, type SearchIndexProgress } from "./search/search-index";
export { exportSession, type SessionExport } from "./store/export";
export { findSessionSource, type SessionSourceInfo } from "./import/source-read";
export { extendStoredSource } from "./import/source-capture";
export { findTrackedFile, listTrackedFiles, saveTrackedFile, type TrackedFile } from "./import/tracked-files";
export { createAgentStore, writeSessionSettings } from "./store/agent-store";
export {
  type AuthSessionRow,
  deleteAuthSession,
  deleteAuthSessionByToken,
  deleteOtherAuthSessions,
  insertAuthSession,
  listAuthSessions,
  pruneAuthSessions,
  touchAuthSession,
} from "./store/auth-sessions";
export { databaseUrl, disconnectDb, getDb, useDatabase } from "./client";
export { type EntryRow, toEntryRow } from "./store/entry-columns";
export { ENTRY_COPY_COLUMNS, EntryCopyEncoder } from "./import/entry-copy";
export { DEFAULT_MAX_IMPORT_BYTES } from "./import/import";
export { LineReader } from "./import/line-reader";
export { type CallBodies, type CallRow, readCallBodies, readPrunedOriginals, readSessionCalls, type SessionCalls } from "./model-calls/read";
export { createDbRecorder, recordModelCall } from "./model-calls/model-calls";
export { toPgJson } from "./pg-json";
export { cacheBudgetBytes, chargePromptMemory, configureReadModel, memoPerEntries, memoPerEntry, peekCachedSession, readModelStats, readSession, type SessionView } from "./read-model";
export { ByteLru } from "./read-model/lru";
export { SOURCE_CHUNK_BYTES } from "./import/source-capture";
export { encodeSourceChunk } from "./import/source-codec";
export { withTransaction } from "./store/sql";
