/**
 * Ports of the agent: the interfaces lib/agent needs from the outside world (conventions rules
 * 1–2). lib/agent never imports lib/db, `next` or the AI SDK; adapters outside lib/agent
 * (lib/llm for models, lib/db for the store, the CLI for tools) implement these and are handed
 * to `new SessionAgent(...)`.
 *
 * Contracts, in short:
 * - AgentStore persists what the agent appended to its in-memory SessionTree. `commit` is
 *   atomic and optimistic: it fails with `ConflictError` (defined here, thrown by every store)
 *   when the stored leaf is not `expectedLeafId`, i.e. someone else moved the session meanwhile.
 * - AgentModel.stream never throws: provider failures come back as an assistant message with
 *   stopReason "error" and `errorMessage`, an abort as stopReason "aborted" with the partial
 *   content (lib/llm/stream-assistant.ts). The agent still guards against a throw.
 * - AgentModel.summarizer returns the engine's `Summarize` (session-engine.md §6, §7): it may throw only
 *   for remote-endpoint failures, which the auto-compaction retry logic sees (session-engine.md §13.3).
 * - ModelResolver is the provider registry as the agent sees it (session-engine.md §13.3 steps 2 and 5).
 * - Recorder and event listeners are observers: their failures never break a turn.
 */
import type { Summarize, SummarizeRequest } from "@/lib/compaction/summarize-types";
import type {
  AssistantMessage,
  ImageContent,
  LlmMessage,
  SessionEntry,
  StopReason,
  TextContent,
  ToolCall,
  ToolResultMessage,
  Usage,
} from "@/lib/session/types";

export type * from "@/lib/agent/events";

type MaybePromise<T> = T | Promise<T>;

// ── Store ──────────────────────────────────────────────────────────────────

export interface AgentStoreCommit {
  /** The leaf the store must currently have; anything else is a conflict. */
  expectedLeafId: string | null;
  /** New entries in append order (may be empty when only the leaf moves, e.g. navigation). */
  entries: SessionEntry[];
  /** The session's leaf after this commit. */
  newLeafId: string | null;
}

/** One tool result rewritten by pruning (session-engine.md §8), with what it held before. */
export interface PrunedToolResultRecord {
  entryId: string;
  /** The content before pruning, kept by the store so the prune can be undone. */
  originalContent: (TextContent | ImageContent)[];
  /** The pruned message as it is now (notice content, `prunedAt` set). */
  message: ToolResultMessage;
}

export interface AgentStore {
  /**
   * Appends `entries` and moves the leaf to `newLeafId`, atomically. Throws ConflictError
   * when the stored leaf is not `expectedLeafId`; nothing is written then.
   */
  commit(input: AgentStoreCommit): Promise<void>;
  /** Rewrites the pruned tool results in place (session-engine.md §1.9 "Rewrites", §8). */
  persistPrune(pruned: PrunedToolResultRecord[]): Promise<void>;
}

/** What a conflict says to the person who sees it (the UI shows it as it is). */
export const CONFLICT_MESSAGE = "This session changed in another tab — reload";

/**
 * The store's optimistic-concurrency failure: a write stated the leaf it expected and the
 * session's leaf had moved (another tab or process wrote first). Nothing was written; reload
 * and try again. The one class every store throws (lib/db, MemoryAgentStore).
 */
export class ConflictError extends Error {
  override readonly name = "ConflictError";
  /** Absent for a store that holds one session (MemoryAgentStore). */
  readonly sessionId: string | undefined;
  readonly expectedLeafId: string | null;
  readonly actualLeafId: string | null;
  constructor(input: { sessionId?: string; expectedLeafId: string | null; actualLeafId: string | null }) {
    super(CONFLICT_MESSAGE);
    this.sessionId = input.sessionId;
    this.expectedLeafId = input.expectedLeafId;
    this.actualLeafId = input.actualLeafId;
  }
}

/** True for the store's optimistic-concurrency failure, by class. */
export function isConflictError(err: unknown): err is ConflictError {
  return err instanceof ConflictError;
}

// ── Model ──────────────────────────────────────────────────────────────────

export type { AgentModelInfo, AgentToolDefinition, ModelCallKind } from "@/lib/types/model-call";
import type { AgentModelInfo, AgentToolDefinition, ModelCallKind } from "@/lib/types/model-call";

/**
 * Streaming increments of the assistant message being generated. Structurally the same as
 * lib/llm/stream-assistant.ts `AssistantDelta`, so the adapter passes `onDelta` straight
 * through; `contentIndex` is the block's index in the final `content`.
 */
export type AssistantDelta =
  | { type: "text-delta"; delta: string; contentIndex: number }
  | { type: "reasoning-delta"; delta: string; contentIndex: number }
  | { type: "tool-call"; toolCall: ToolCall; contentIndex: number }
  | { type: "finish"; message: AssistantMessage };

export interface ModelStreamRequest {
  system?: string;
  /** Already through convertToLlm (session-engine.md §3). */
  messages: LlmMessage[];
  tools?: readonly AgentToolDefinition[];
  maxOutputTokens?: number;
  signal?: AbortSignal;
  onDelta?(delta: AssistantDelta): void;
}

/** Streamed summary text, per summarization call kind (for the UI's live summary). */
export type SummaryTextListener = (kind: SummarizeRequest["kind"], delta: string) => void;

export interface AgentSummarizerOptions {
  onText?: SummaryTextListener;
  /** `compaction.remoteEndpoint` (session-engine.md §7); the agent passes the current setting. */
  remoteEndpoint?: string;
}

export interface AgentModel {
  info: AgentModelInfo;
  /** False when the provider has no credentials (session-engine.md §13.3 step 5, §13.4). */
  hasApiKey: boolean;
  /** Never throws (see header). Resolves with the complete (or partial, if aborted) message. */
  stream(req: ModelStreamRequest): Promise<AssistantMessage>;
  /** The engine's Summarize bound to this model (session-engine.md §6, §7). */
  summarizer(opts?: AgentSummarizerOptions): Summarize;
}

/** The provider registry (lib/llm/providers.ts adapter). Either method may be async. */
export interface ModelResolver {
  /** A "provider/modelId" reference → model, or undefined when unknown/unconfigured. */
  resolve(ref: string): MaybePromise<AgentModel | undefined>;
  /** Every model the registry can currently serve (session-engine.md §13.3 steps 2 and 5). */
  listAvailable(): MaybePromise<AgentModel[]>;
}

// ── Tools ──────────────────────────────────────────────────────────────────

export interface ToolExecutionResult {
  content: string | (TextContent | ImageContent)[];
  isError?: boolean;
  details?: unknown;
}

/** Tools the model may call. A throw from `execute` becomes an `isError` tool result. */
export interface AgentTools {
  definitions: readonly AgentToolDefinition[];
  execute(call: ToolCall, signal: AbortSignal): Promise<ToolExecutionResult>;
}

// ── Model-call recording (context inspector) ───────────────────────────────


export interface ModelCallRecord {
  kind: ModelCallKind;
  model: AgentModelInfo;
  request: {
    system?: string;
    messages: LlmMessage[];
    tools?: readonly AgentToolDefinition[];
    maxOutputTokens?: number;
    reasoning?: "high";
  };
  response: {
    /** The assistant message of a chat call. */
    message?: AssistantMessage;
    /** The text of a summarization call. */
    text?: string;
    usage?: Usage;
    stopReason: StopReason;
    errorMessage?: string;
  };
  /** Epoch ms. */
  startedAt: number;
  durationMs: number;
}

/** Called once after every model call (chat step or summarization call), even a failed one. */
export interface ModelCallRecorder {
  record(call: ModelCallRecord): void | Promise<void>;
}

// ── Misc ───────────────────────────────────────────────────────────────────

/** Resolves after `ms`; rejects (any error) as soon as `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface AgentLogger {
  warn(message: string, data?: Record<string, unknown>): void;
}
