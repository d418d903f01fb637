/**
 * Entry and message types of a session file (session-engine.md §1.2–1.5).
 * Pure: no network, disk or database access. These are the shapes stored in JSONL files and in
 * the database's JSONB column; unknown fields are preserved by every reader and writer.
 */

export const CURRENT_SESSION_VERSION = 3;

export interface SessionHeader {
  type: "session";
  /** Absent in v1 files. */
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  title?: string;
  parentSession?: string;
  [key: string]: unknown;
}

// ── Message content (session-engine.md §1.5) ────────────────────────────────────────────

export type TextContent = { type: "text"; text: string; textSignature?: string };
export type ThinkingContent = { type: "thinking"; thinking: string; thinkingSignature?: string };
export type ImageContent = { type: "image"; data: string; mimeType: string };
export type ToolCall = { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Missing in old files. */
  totalTokens?: number;
  cost?: UsageCost;
}
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  synthetic?: boolean;
  timestamp: number;
}
export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  api?: string;
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  duration?: number;
  ttft?: number;
  timestamp: number;
}
export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
  /** Set by pruning (session-engine.md §8); the original content is kept by the store. */
  prunedAt?: number;
  /** The session of the subagent that produced this result (an imported Claude Code Task call; docs/formats.md). */
  subagentSessionId?: string;
  timestamp: number;
}
export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode: number | undefined | null;
  cancelled: boolean;
  truncated: boolean;
  meta?: unknown;
  excludeFromContext?: boolean;
  timestamp: number;
}
export interface PythonExecutionMessage {
  role: "pythonExecution";
  code: string;
  output: string;
  exitCode: number | undefined | null;
  cancelled: boolean;
  truncated: boolean;
  meta?: unknown;
  excludeFromContext?: boolean;
  timestamp: number;
}
export interface CustomMessage {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
  timestamp: number;
}
/** The v2 name of `custom`; migration renames it (session-engine.md §1.7). */
export interface HookMessage extends Omit<CustomMessage, "role"> {
  role: "hookMessage";
}
export interface FileMentionFile {
  path: string;
  content: string;
  lineCount?: number;
  byteSize?: number;
  skippedReason?: "tooLarge";
  image?: ImageContent;
}
export interface FileMentionMessage {
  role: "fileMention";
  files: FileMentionFile[];
  timestamp: number;
}
/** In memory only: built by buildSessionContext, never stored in a message entry. */
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  shortSummary?: string;
  tokensBefore: number;
  timestamp: number;
}
/** In memory only: built by buildSessionContext, never stored in a message entry. */
export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}

export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | PythonExecutionMessage
  | CustomMessage
  | HookMessage
  | FileMentionMessage
  | CompactionSummaryMessage
  | BranchSummaryMessage;

/** Messages an LLM receives after convertToLlm (session-engine.md §3). */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

// ── Entries (session-engine.md §1.3–1.4) ────────────────────────────────────────────────

export interface SessionEntryBase {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
}

export interface FileListDetails {
  readFiles: string[];
  modifiedFiles: string[];
}

export interface MessageEntry extends SessionEntryBase {
  type: "message";
  message: AgentMessage;
}
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}
export interface ModelChangeEntry extends SessionEntryBase {
  type: "model_change";
  /** "provider/modelId"; legacy entries carry provider + modelId instead. */
  model?: string;
  role?: string;
  provider?: string;
  modelId?: string;
}
export interface CompactionEntry extends SessionEntryBase {
  type: "compaction";
  summary: string;
  shortSummary?: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  preserveData?: Record<string, unknown>;
  fromExtension?: boolean;
  /** pi's name for fromExtension; read as fromExtension (session-engine.md §1.4). */
  fromHook?: boolean;
  /** Arbor (§19): pinned entries before the cut, carried verbatim after the summary. */
  pinnedEntryIds?: string[];
  /** pi ≥ 0.84: the usage of the call that wrote the summary (§1.4). */
  usage?: Usage;
  /** Arbor: the provider and model id of the summary calls (with `usage`), so their cost is known. */
  provider?: string;
  model?: string;
}
export interface BranchSummaryEntry extends SessionEntryBase {
  type: "branch_summary";
  /** The attach point (the entry the summary hangs under) or "root". */
  fromId: string;
  summary: string;
  details?: unknown;
  fromExtension?: boolean;
  fromHook?: boolean;
  /** pi ≥ 0.84: the usage of the call that wrote the summary (§1.4). */
  usage?: Usage;
  /** Arbor: the provider and model id of the summary call (with `usage`). */
  provider?: string;
  model?: string;
}

/** What a summary call spent, as a compaction or branch summary entry records it (§1.4). */
export interface SummaryCall {
  usage: Usage;
  provider?: string;
  model?: string;
}
export interface CustomEntry extends SessionEntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
  /** Arbor: one line the chat shows for this entry, muted (an imported record a person reads); never in context (§1.4). */
  notice?: string;
}
export interface CustomMessageEntry extends SessionEntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  details?: unknown;
  display: boolean;
}
export interface LabelEntry extends SessionEntryBase {
  type: "label";
  targetId: string;
  label: string | undefined;
}
export interface TtsrInjectionEntry extends SessionEntryBase {
  type: "ttsr_injection";
  injectedRules: string[];
}
export interface SessionInitEntry extends SessionEntryBase {
  type: "session_init";
  systemPrompt: string;
  task: string;
  tools: string[];
  outputSchema?: unknown;
}
export interface ModeChangeEntry extends SessionEntryBase {
  type: "mode_change";
  mode: string;
  data?: Record<string, unknown>;
}
export interface SessionInfoEntry extends SessionEntryBase {
  type: "session_info";
  name?: string;
}

export type KnownEntry =
  | MessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | TtsrInjectionEntry
  | SessionInitEntry
  | ModeChangeEntry
  | SessionInfoEntry;

/**
 * Any entry. Unknown types are preserved verbatim (session-engine.md §1.4); code narrows with `entry.type`.
 * The index signature keeps unknown fields through round trips.
 */
export type SessionEntry = KnownEntry & { [key: string]: unknown };

/** A parsed file: the header line followed by its entries, in file order. */
export type FileEntry = SessionHeader | SessionEntry;

export interface SessionContext {
  messages: AgentMessage[];
  thinkingLevel: string;
  models: Record<string, string>;
  injectedTtsrRules: string[];
  mode: string;
  modeData?: Record<string, unknown>;
}

/** Prompt templates loaded by lib/llm and handed to the engine (session-engine.md §17). */
export interface PromptSet {
  compactionSummary: string;
  compactionUpdateSummary: string;
  compactionTurnPrefix: string;
  compactionShortSummary: string;
  /** Raw template with `{{summary}}`; rendered per message. */
  compactionSummaryContext: string;
  /** Raw template with `{{summary}}`; rendered per message. */
  branchSummaryContext: string;
  branchSummary: string;
  branchSummaryPreamble: string;
  summarizationSystem: string;
}

export function isMessageEntry(e: { type: string }): e is MessageEntry {
  return e.type === "message";
}
