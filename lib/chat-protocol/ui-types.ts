/**
 * The one UI message type of the chat stream (conventions rule 6) and its data parts.
 *
 * Protocol of `POST /api/chat` (AI SDK v6 UI message stream, consumed by `useChat`):
 * - Each model call of the turn is one step: `start-step`, then `reasoning-*` / `text-*` deltas
 *   of the assistant message being generated, then `finish-step`. The client shows the parts after
 *   the last `step-start` as the live message until that step's entry is saved.
 * - Everything the server persists is announced as a transient `data-entry` part (user message,
 *   assistant message, tool results, compaction, the synthetic continue prompt…) in append order,
 *   with the session's leaf after it; the client appends it to its cached session data, so the chat
 *   and the canvas update live. The database stays the source of truth (refetch on finish).
 * - Compaction, retry, pruning, usage and errors travel as transient data parts too.
 */
import type { UIMessage } from "ai";
import type { ContextUsage } from "@/lib/compaction/tokens";
import type { SessionEntry } from "@/lib/session/types";

export interface ArborMessageMeta {
  sessionId?: string;
}

export type CompactionReason = "manual" | "threshold" | "overflow";

/** A type alias (not an interface) so it satisfies the SDK's `UIDataTypes` index signature. */
export type ArborDataParts = {
  /** An entry the server saved, and the session's leaf after it. */
  entry: { entry: SessionEntry; leafId: string | null };
  compaction:
    | { phase: "start"; reason: CompactionReason }
    | { phase: "delta"; reason: CompactionReason; kind: string; delta: string }
    | { phase: "end"; reason: CompactionReason; entryId?: string; aborted?: boolean; willRetry?: boolean; errorMessage?: string };
  retry:
    | { phase: "start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
    | { phase: "end"; success: boolean; attempt: number; finalError?: string };
  prune: { prunedCount: number; tokensSaved: number };
  usage: ContextUsage | null;
  /** A branch summary streaming while navigating (`POST /api/sessions/[id]/navigate`). */
  branchSummary: {
    phase: "start" | "delta" | "end";
    delta?: string;
    /** The stored branch_summary entry (end only, when one was written). */
    entryId?: string;
    aborted?: boolean;
    errorMessage?: string;
  };
  /** The outcome of a navigation; `previousLeafId` is where "Undo" moves the leaf back to. */
  navigated: {
    leafId: string | null;
    previousLeafId?: string | null;
    editorText?: string;
    cancelled: boolean;
    aborted?: boolean;
    summaryEntryId?: string;
  };
  /** A failure the turn could not recover from; `code: "conflict"` means another tab moved the session. */
  error: { message: string; code?: "conflict" | "busy" | "not_found" | "failed" };
};

export type SessionUIMessage = UIMessage<ArborMessageMeta, ArborDataParts>;
