import "server-only";
/**
 * The session store (Postgres via Prisma): one import for the app layer. The only place that
 * touches Prisma is lib/db (conventions rule 4); these functions take object parameters and
 * return engine types (SessionEntry, SessionTree) or plain serializable rows.
 *
 * Writes that change a session's tree go through `commitEntries` (optimistic: they state the
 * leaf they expect and throw ConflictError if it moved). See each module's header for details.
 */
export * from "./errors";
export type { SessionMeta, SessionSummary } from "./session-rows";
export { findLiveSession, isLiveSession, readLiveSession } from "./live-session";
export { findSessionMeta, getSessionMeta, type LoadedTree, loadEntries, loadPath, loadTree } from "./store-read";
export { type CommitInput, type CommitResult, commitEntries } from "./store-commit";
export { appendCompaction, appendEntries, branch, branchWithSummary, resetLeaf, setLabel, setPin } from "./store-write";
export { createSession, type ForkResult, forkSession, renameSession, restoreSession, softDeleteSession } from "./store-session";
export { applyPrune, getPrunedOriginals, type PrunedEntry, undoPrune } from "./store-prune";
export { listSessions, type ListSessionsInput, type SessionPage, toPrefixTsQuery } from "./session-list";
export { type ImportOptions, type ImportProgress, type ImportResult, importSession } from "./import";
export { buildSearchIndex, scheduleSearchIndex, type SearchIndexProgress } from "./search-index";
export { exportSession, type SessionExport } from "./export";
export { findSessionSource, type SessionSourceInfo } from "./source-read";
