/**
 * AgentEvent: everything a SessionAgent reports to its `emit` callback (the chat route turns
 * these into UI stream parts; the CLI prints them). Types only; re-exported by ports.ts.
 *
 * Ordering contract:
 * - turn_start → message_start → message_delta* → message_end → message_saved →
 *   (tool_start → tool_end → message_saved)* → turn_end, once per model call.
 * - `message_saved` follows every entry that the store has committed (user, assistant,
 *   toolResult, custom message, compaction, branch summary), so its entry id is durable.
 * - The lifecycle events whose names match session-engine.md §12 (auto_compaction_*, auto_retry_*,
 *   turn_*) carry exactly the §12 payloads and are also sent to the hook registry.
 * - compaction_start/compaction_summary_delta/compaction_end wrap every compaction, manual
 *   and automatic, so the UI can show the summary as it streams. Manual compaction never
 *   emits auto_compaction_* (session-engine.md §12).
 */
import type { AssistantDelta } from "@/lib/agent/ports";
import type { CompactionResult, SummarizeRequest } from "@/lib/compaction/summarize-types";
import type { ContextUsage } from "@/lib/compaction/tokens";
import type {
  AutoCompactionEndPayload,
  AutoCompactionStartPayload,
  AutoRetryEndPayload,
  AutoRetryStartPayload,
  TurnEndPayload,
  TurnStartPayload,
} from "@/lib/hooks/types";
import type { AssistantMessage, SessionEntry, ToolCall, ToolResultMessage } from "@/lib/session/types";

export type CompactionReason = "manual" | "threshold" | "overflow";

export type AgentEvent =
  | ({ type: "turn_start" } & TurnStartPayload)
  | ({ type: "turn_end" } & TurnEndPayload)
  | { type: "message_start"; role: "assistant"; provider: string; model: string }
  | { type: "message_delta"; delta: AssistantDelta }
  | { type: "message_end"; message: AssistantMessage; entryId: string }
  | { type: "message_saved"; entryId: string; entry: SessionEntry }
  | { type: "tool_start"; toolCall: ToolCall }
  | { type: "tool_end"; toolCall: ToolCall; result: ToolResultMessage; entryId: string }
  | { type: "compaction_start"; reason: CompactionReason }
  | { type: "compaction_summary_delta"; kind: SummarizeRequest["kind"]; delta: string }
  | {
      type: "compaction_end";
      reason: CompactionReason;
      result?: CompactionResult;
      /** The stored compaction entry (absent when nothing was written). */
      entryId?: string;
      aborted: boolean;
      errorMessage?: string;
    }
  | ({ type: "auto_compaction_start" } & AutoCompactionStartPayload)
  | ({ type: "auto_compaction_end" } & AutoCompactionEndPayload)
  | ({ type: "auto_retry_start" } & AutoRetryStartPayload)
  | ({ type: "auto_retry_end" } & AutoRetryEndPayload)
  | { type: "prune"; prunedCount: number; tokensSaved: number }
  | { type: "context_usage"; usage: ContextUsage }
  /** `conflict`: the failure was the store's ConflictError (classified by class, not by text). */
  | { type: "error"; message: string; conflict?: boolean };

export type AgentEventType = AgentEvent["type"];

export type AgentEmit = (event: AgentEvent) => void;
