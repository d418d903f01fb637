import "server-only";
/**
 * The entry point of lib/db, its one door: `@/lib/db` is the one module that code outside lib/db
 * imports (app, components' server code, cli and the rest of lib). It exports the store's verbs,
 * the types they take and return, and the errors they throw; the plumbing stays inside (the
 * Prisma client, transactions, entry rows and their COPY encoding, the line reader, JSON for pg,
 * the stored original's codec, the read model's test knobs). The only place that touches Prisma
 * is lib/db (conventions rule 4); the verbs take object parameters and return engine types
 * (SessionEntry, SessionTree) or plain serializable rows.
 *
 * Rooms: store/ (sessions and entries), search/ (the list and full-text search), import/ (the
 * import pipeline, the stored original, a synced folder's files), model-calls/, read-model/,
 * usage/ (the usage ledger: written with the entries, read for the reports).
 * Writes that change a session's tree go through `commitEntries` (optimistic: they state the
 * leaf they expect and throw ConflictError if it moved). See each module's header for details.
 *
 * Tests, test/ and bench/ may import any module of lib/db where they need plumbing; other code
 * that does fails `npm run check` (biome.json's dependency rules).
 */
export {
  CONFLICT_MESSAGE,
  ConflictError,
  DATABASE_UNAVAILABLE_MESSAGE,
  DatabaseUnavailableError,
  IdCollisionError,
  ImportError,
  type ImportErrorCode,
  isDatabaseUnavailable,
  type LimitCode,
  LimitError,
  NotFoundError,
  pgErrorOf,
  SessionExistsError,
  StoreError,
  toDatabaseError,
} from "./errors";
export { databaseUrl, disconnectDb, useDatabase } from "./client";
export type { SessionMeta, SessionSummary } from "./store/session-rows";
export { findLiveSession, isLiveSession, readLiveSession } from "./store/live-session";
export { findSessionMeta, findStoredEntries, getSessionMeta, type LoadedTree, loadEntries, loadPath, loadTree } from "./store/read";
export { type CommitInput, type CommitResult, commitEntries } from "./store/commit";
export { SESSION_CHANNEL } from "./store/commit-sql";
export { allowRoots, listAllowedRoots } from "./import/allowed-roots";
export { appendCompaction, appendEntries, branch, branchWithSummary, resetLeaf, setArchive, setLabel, setPin } from "./store/write";
export { createSession, type ForkResult, forkSession, renameSession, restoreSession, softDeleteSession } from "./store/session";
export { applyPrune, getPrunedOriginals, type PrunedEntry, undoPrune } from "./store/prune";
export { exportSession, type SessionExport } from "./store/export";
export { createAgentStore, writeSessionSettings } from "./store/agent-store";
export { countSecretFindings, listSecretFindings } from "./store/secret-findings";
export { deleteForGood, listTrash, purgeExpiredTrash, purgeTrash, TRASH_DAYS, type TrashedSession } from "./store/session-trash";
export {
  type AuthSessionRow,
  deleteAuthSession,
  deleteAuthSessionByToken,
  deleteAuthSessionsOfOtherKeys,
  deleteOtherAuthSessions,
  insertAuthSession,
  listAuthSessions,
  pruneAuthSessions,
  touchAuthSession,
} from "./store/auth-sessions";
export { countMcpTokens, deleteMcpToken, insertMcpToken, listMcpTokens, type McpTokenRow, useMcpToken } from "./store/mcp-tokens";
export { listSessions, type ListSessionsInput, type SessionFilter, type SessionPage } from "./search/session-list";
export { type FacetCount, type SessionFacets, sessionFacets } from "./search/session-facets";
export { buildSearchIndex, scheduleSearchIndex, searchIndexIdle, type SearchIndexProgress } from "./search/search-index";
export { DEFAULT_MAX_IMPORT_BYTES, type ImportOptions, type ImportProgress, type ImportResult, importSession } from "./import/import";
export { findSessionSource, type SessionSourceInfo, storedSourcePrefixSha256 } from "./import/source-read";
export { extendStoredSource, replaceStoredSource } from "./import/source-capture";
export { findTrackedFile, listTrackedFiles, saveTrackedFile, type TrackedFile } from "./import/tracked-files";
export { type CallBodies, type CallRow, readCallBodies, readPrunedOriginals, readSessionCalls, type SessionCalls } from "./model-calls/read";
export { createDbRecorder, recordModelCall } from "./model-calls/model-calls";
export { backfillLedger } from "./usage/ledger-backfill";
export { usageSeries, type UsageSeriesInput } from "./usage/ledger-series";
export { type LedgerModel, listPriceOverrides, pricedModels, removePriceOverride, setPriceOverride, type StoredPriceOverride } from "./usage/price-overrides";
export { readLedger, type SessionUsage, type StoredUsageRow, sessionCosts, sessionUsage, type UsageTotal } from "./usage/ledger-read";
export { type SessionCostStrip, sessionCostStrip } from "./usage/cost-strip";
export { cacheBudgetBytes, chargePromptMemory, memoPerEntries, memoPerEntry, readSession, type SessionView } from "./read-model";
