/**
 * Hook event map: every event's payload and result type (session-engine.md §12).
 * Pure: types only. An event object is `{ type, ...payload }`; a handler receives it with a
 * read-only session context and may return the event's result type (or nothing).
 */
import type { CompactionPreparation } from "@/lib/compaction/prepare";
import type { CompactionResult } from "@/lib/compaction/summarize-types";
import type { TreeNode } from "@/lib/session/tree/tree-build";
import type {
  AgentMessage,
  BranchSummaryEntry,
  CompactionEntry,
  CustomMessageEntry,
  ImageContent,
  SessionEntry,
  SessionHeader,
  ToolResultMessage,
} from "@/lib/session/types";

// ── Read-only session access handed to every handler (session-engine.md §12) ────────────

export interface HookContext {
  getEntries(): readonly SessionEntry[];
  getEntry(id: string): SessionEntry | undefined;
  /** Root-first path to `fromId` (default: the leaf). */
  getBranch(fromId?: string | null): readonly SessionEntry[];
  getLeafId(): string | null;
  getTree(): readonly TreeNode[];
  getLabel(id: string): string | undefined;
  getHeader(): Readonly<SessionHeader>;
}

// ── Compaction and tree events (session-engine.md §12 first table) ──────────────────────

/** What navigateTree is about to do (session-engine.md §11.4 step 3). */
export interface TreePreparation {
  targetId: string;
  oldLeafId: string | null;
  commonAncestorId: string | null;
  entriesToSummarize: SessionEntry[];
  userWantsSummary: boolean;
}

export interface SessionBeforeCompactPayload {
  preparation: CompactionPreparation;
  /** The current branch, root → leaf. */
  branchEntries: SessionEntry[];
  customInstructions?: string;
  signal: AbortSignal;
}
export interface SessionBeforeCompactResult {
  cancel?: boolean;
  /** Stored as given, with fromExtension: true (session-engine.md §12). */
  compaction?: CompactionResult;
}

export interface SessionCompactingPayload {
  sessionId: string;
  /** `[...messagesToSummarize, ...turnPrefixMessages]`. */
  messages: AgentMessage[];
}
export interface SessionCompactingResult {
  /** Lines for the `<additional-context>` block. */
  context?: string[];
  /** Becomes `promptOverride`. */
  prompt?: string;
  preserveData?: Record<string, unknown>;
}

export interface SessionCompactPayload {
  compactionEntry: CompactionEntry;
  fromExtension: boolean;
}

export interface SessionBeforeTreePayload {
  preparation: TreePreparation;
  signal: AbortSignal;
}
export interface SessionBeforeTreeResult {
  cancel?: boolean;
  summary?: { summary: string; details?: unknown };
}

export interface SessionTreePayload {
  newLeafId: string | null;
  oldLeafId: string | null;
  summaryEntry?: BranchSummaryEntry;
  fromExtension?: boolean;
}

// ── Lifecycle events (session-engine.md §12 second table) ───────────────────────────────

export interface AutoCompactionStartPayload {
  reason: "threshold" | "overflow";
}
export interface AutoCompactionEndPayload {
  result: CompactionResult | undefined;
  aborted: boolean;
  willRetry: boolean;
  errorMessage?: string;
}
export interface AutoRetryStartPayload {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  errorMessage: string;
}
export interface AutoRetryEndPayload {
  success: boolean;
  attempt: number;
  finalError?: string;
}
export interface SessionBeforeBranchPayload {
  entryId: string;
}
export interface SessionBeforeBranchResult {
  cancel?: boolean;
  skipConversationRestore?: boolean;
}
export interface SessionBranchPayload {
  previousSessionFile?: string;
}
export type SwitchReason = "new" | "resume" | "fork";
export interface SessionBeforeSwitchPayload {
  reason: SwitchReason;
  targetSessionFile?: string;
}
export interface SessionBeforeSwitchResult {
  cancel?: boolean;
}
export interface SessionSwitchPayload {
  reason: SwitchReason;
  previousSessionFile?: string;
}
export interface ContextPayload {
  messages: AgentMessage[];
}
export interface ContextResult {
  /** Replaces the messages sent to the model. */
  messages?: AgentMessage[];
}
export interface BeforeAgentStartPayload {
  prompt: string;
  images?: ImageContent[];
}
/** A custom message to inject before the prompt. */
export type InjectedMessage = Pick<CustomMessageEntry, "customType" | "content" | "display" | "details">;
export interface BeforeAgentStartResult {
  message?: InjectedMessage;
}
export interface TurnStartPayload {
  turnIndex: number;
  timestamp: number;
}
export interface TurnEndPayload {
  turnIndex: number;
  message: AgentMessage;
  toolResults: ToolResultMessage[];
}

// ── The map ────────────────────────────────────────────────────────────────

interface Ev<P, R = void> {
  payload: P;
  result: R;
}

export interface HookEventMap {
  session_before_compact: Ev<SessionBeforeCompactPayload, SessionBeforeCompactResult>;
  "session.compacting": Ev<SessionCompactingPayload, SessionCompactingResult>;
  session_compact: Ev<SessionCompactPayload>;
  session_before_tree: Ev<SessionBeforeTreePayload, SessionBeforeTreeResult>;
  session_tree: Ev<SessionTreePayload>;
  auto_compaction_start: Ev<AutoCompactionStartPayload>;
  auto_compaction_end: Ev<AutoCompactionEndPayload>;
  auto_retry_start: Ev<AutoRetryStartPayload>;
  auto_retry_end: Ev<AutoRetryEndPayload>;
  session_before_branch: Ev<SessionBeforeBranchPayload, SessionBeforeBranchResult>;
  session_branch: Ev<SessionBranchPayload>;
  session_before_switch: Ev<SessionBeforeSwitchPayload, SessionBeforeSwitchResult>;
  session_switch: Ev<SessionSwitchPayload>;
  context: Ev<ContextPayload, ContextResult>;
  before_agent_start: Ev<BeforeAgentStartPayload, BeforeAgentStartResult>;
  turn_start: Ev<TurnStartPayload>;
  turn_end: Ev<TurnEndPayload>;
}

export type HookEventType = keyof HookEventMap;

/** The event object a handler receives: `{ type, ...payload }`. */
export type HookEvent<K extends HookEventType = HookEventType> = K extends HookEventType
  ? { type: K } & HookEventMap[K]["payload"]
  : never;

export type HookResult<K extends HookEventType> = HookEventMap[K]["result"];

/**
 * What a handler may return: its event's result, or nothing. `void` is listed because a handler
 * body without a `return` is inferred as returning void. Result-less events ignore the value.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing are inferred as void
export type HookHandlerReturn<K extends HookEventType> = HookResult<K> | undefined | void;

export type HookHandler<K extends HookEventType> = (
  event: HookEvent<K>,
  ctx: HookContext,
) => HookHandlerReturn<K> | Promise<HookHandlerReturn<K>>;

/** What the error listener receives when a handler (or a source's setup) throws (session-engine.md §12). */
export interface HookError {
  /** The hook source name (e.g. the project's `arbor.hooks.ts`). */
  source: string;
  /** The event type, or "setup" when a source's setup function threw. */
  event: HookEventType | "setup";
  error: string;
  stack?: string;
}
export type HookErrorListener = (error: HookError) => void;

/** What a hook source's setup function receives. */
export interface HookApi {
  readonly source: string;
  on<K extends HookEventType>(type: K, handler: HookHandler<K>): () => void;
}
export type HookSetup = (api: HookApi) => void;
