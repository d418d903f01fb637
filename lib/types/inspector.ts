/**
 * The context inspector's shapes, shared by lib/inspector (pure), lib/db (recorded calls), the
 * API routes and the panel (which imports them as types only). Everything here is plain JSON, so
 * it crosses the route boundary unchanged; times are ISO strings.
 */
import type { AgentModelInfo, AgentToolDefinition, ModelCallKind } from "./model-call";
import type { AssistantMessage, LlmMessage, StopReason, Usage } from "@/lib/session/types";

export type { ModelCallKind } from "./model-call";

/** Where a message sent to the model came from. */
export type MessageSource =
  /** The compaction summary (its source entry is the compaction entry). */
  | "compaction"
  /** A branch summary (its source entry is the branch_summary entry). */
  | "branchSummary"
  /** Any other entry of the session. */
  | "entry"
  /** Not matched to an entry (a summarization prompt, a preview placeholder, an unmatched message). */
  | "none";

/** What the diff and the token bar need to know about one message. */
export interface MessageRef {
  /** sha256 of the message's canonical JSON (lib/content-address.ts). */
  hash: string;
  sourceEntryId: string | null;
  source: MessageSource;
  role: LlmMessage["role"];
  /** estimateTokens (session-engine.md §4). */
  tokens: number;
}

/** A message as sent, with its provenance. */
export interface SourcedMessage {
  message: LlmMessage;
  hash: string;
  sourceEntryId: string | null;
  source: MessageSource;
  /** A stand-in the preview shows for text that does not exist yet (the next prompt, a pending summary). */
  placeholder?: boolean;
}

/** Kinds of the context-window bar (issue: system prompt, summaries, kept history, tool results, new message). */
export type SegmentKind = "system" | "summaries" | "history" | "toolResults" | "new";

export interface Segment {
  kind: SegmentKind;
  label: string;
  tokens: number;
  /** Messages in the segment (1 for the system prompt when there is one). */
  count: number;
}

export interface InspectedMessage extends MessageRef {
  index: number;
  message: LlmMessage;
  kind: SegmentKind;
  /** Kept by the compaction: sent verbatim from before it (from firstKeptEntryId on). */
  kept: boolean;
  /** The first kept message (carries the "kept from firstKeptEntryId" marker). */
  firstKept: boolean;
  placeholder: boolean;
}

export interface DiffItem {
  /** Index in its own list (previous list for removed items, this list otherwise). */
  index: number;
  role: LlmMessage["role"];
  hash: string;
  sourceEntryId: string | null;
  tokens: number;
}

export interface CallDiff {
  /**
   * How many items each list has in all. Lists sent to the browser hold at most the first
   * DIFF_LIST_MAX items (lib/inspector/diff.ts boundDiff): one turn of a long session can
   * remove ~100k messages, which the inspector counts but never lists whole.
   */
  counts: { added: number; removed: number; changed: number };
  added: DiffItem[];
  /** Compacted away, pruned out of the list, or dropped (e.g. an error message before a retry). */
  removed: DiffItem[];
  /** Same source entry, different content (e.g. a pruned tool result). */
  changed: { before: DiffItem; after: DiffItem }[];
  unchanged: number;
}

/**
 * Which turn to show: an assistant entry's, a recorded call's, or the next-turn preview (the
 * Context tab's selection; the inspect routes' `entry=`, `call=` or `preview=1`).
 */
export type InspectTarget = { kind: "entry"; entryId: string } | { kind: "call"; callId: string } | { kind: "preview" };

export type TurnOrigin = "recorded" | "reconstructed" | "preview";

/** Everything the Context tab shows for one turn. */
export interface TurnView {
  origin: TurnOrigin;
  sessionId: string;
  /** The recorded call, when origin is "recorded". */
  callId: string | null;
  kind: ModelCallKind;
  /** The entry this call produced (the assistant message of a chat turn), when known. */
  entryId: string | null;
  model: string | null;
  contextWindow: number | null;
  system: string | null;
  tools: AgentToolDefinition[] | null;
  settings: Record<string, unknown>;
  /**
   * The messages sent, in order: all of them when `messageCount` is at most MESSAGE_WINDOW_MAX,
   * else the first and the last MESSAGE_PAGE_SIZE (lib/inspector/message-window.ts); each keeps
   * its `index` in the whole list, and the rest load by page (InspectedMessagesPage).
   */
  messages: InspectedMessage[];
  /** How many messages the turn sent in all (segments and estimatedTokens count all of them). */
  messageCount: number;
  /** The compaction in effect for this context, when there is one. */
  compaction: { entryId: string; firstKeptEntryId: string } | null;
  segments: Segment[];
  /** Our estimate of the whole prompt (system + tools + messages), session-engine.md §4. */
  estimatedTokens: number;
  /** calculatePromptTokens of the provider's usage for this turn, when reported. */
  providerPromptTokens: number | null;
  response: TurnResponse | null;
  startedAt: string | null;
  durationMs: number | null;
  /** The turn the diff compares against. */
  previous: { origin: TurnOrigin; callId: string | null; entryId: string | null } | null;
  diff: CallDiff | null;
  /** What the preview expects to happen before the next call (pruning, compaction). */
  pending: PendingEffects | null;
  /** Plain-language notes ("Reconstructed from the session (no recorded call)", …). */
  notes: string[];
}

/** One page of a turn's messages (GET /api/sessions/[id]/inspect/messages). */
export interface InspectedMessagesPage {
  offset: number;
  /** The turn's messageCount. */
  total: number;
  /** Messages [offset, offset + limit) of the whole list, each with its `index` in it. */
  messages: InspectedMessage[];
}

export interface TurnResponse {
  message?: AssistantMessage;
  text?: string;
  usage?: Usage;
  stopReason: StopReason;
  errorMessage?: string;
}

export interface PendingEffects {
  /**
   * Tool results the pre-prompt check would prune (session-engine.md §8, §13.2 step 2). As sent to
   * the browser, `entryIds` holds at most the first MESSAGE_PAGE_SIZE (message-window.ts); `count` counts all.
   */
  pruning: { count: number; tokensSaved: number; entryIds: string[] } | null;
  /** The automatic compaction the pre-prompt check would run (session-engine.md §13.1, §13.2). */
  compaction: {
    reason: "threshold" | "overflow";
    /** The provider's context tokens, minus what pruning saves. */
    contextTokens: number;
    /** contextWindow − reserveTokens (threshold reason). */
    threshold: number | null;
    firstKeptEntryId: string;
    /** Messages the compaction would summarize (and drop). */
    summarizedCount: number;
  } | null;
}

/** One row of the Calls tab (and of GET /api/sessions/[id]/calls). */
export interface ModelCallSummary {
  id: string;
  seq: number;
  kind: ModelCallKind;
  model: string;
  /** The entry the call produced: attached, or matched from the session's entries. */
  entryId: string | null;
  startedAt: string;
  durationMs: number;
  stopReason: StopReason;
  errorMessage: string | null;
  usage: Usage | null;
  promptTokens: number | null;
  messageCount: number;
}

/** A recorded call in full (GET /api/sessions/[id]/calls/[callId]). */
export interface ModelCallDetail extends ModelCallSummary {
  sessionId: string;
  modelInfo: AgentModelInfo;
  request: {
    system: string | null;
    messages: SourcedMessage[];
    tools: AgentToolDefinition[] | null;
    settings: Record<string, unknown>;
  };
  response: TurnResponse;
  /** The previous chat call of the same session (for the diff), or null. */
  previousCallId: string | null;
  /** How the message list is stored (transparency for the storage figures). */
  storage: { baseCallId: string | null; baseKeep: number; chainDepth: number; storedMessages: number };
}
