/**
 * Types shared by compaction and branch summarization (session-engine.md §5.4, §6).
 * Pure: types only. Every model call in the engine goes through an injected `Summarize`
 * (conventions rule 2), so tests and the lib/llm adapter plug in here.
 */

/** The compaction settings the engine reads (session-engine.md §15); lib/settings owns the schema. */
export type { CompactionSettings } from "@/lib/settings/schema";
import type { Usage } from "@/lib/session/types";

/** One summarization call (session-engine.md §6). `kind` lets the adapter route history/short calls (§7). */
export type SummarizeRequest = {
  kind: "history" | "turnPrefix" | "short" | "branch";
  systemPrompt: string;
  prompt: string;
  maxTokens: number;
  reasoning?: "high";
  signal?: AbortSignal;
};

/** `text` is the response's text blocks joined with "\n"; `shortSummary` only from a remote endpoint (§7). */
export type SummarizeResponse =
  | {
      stopReason: "stop" | "length" | "toolUse";
      text: string;
      shortSummary?: string;
      /** The call's usage, when the model reported one, and the model that answered. */
      usage?: Usage;
      model?: { provider: string; id: string };
    }
  | { stopReason: "error"; errorMessage?: string }
  | { stopReason: "aborted" };

export type Summarize = (req: SummarizeRequest) => Promise<SummarizeResponse>;

/** What `compact()` (or a hook) produces; the orchestrator turns it into a compaction entry. */
export interface CompactionResult {
  summary: string;
  shortSummary?: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  preserveData?: Record<string, unknown>;
  /** Arbor §19: the pinned entries this compaction carries verbatim after its summary. */
  pinnedEntryIds?: string[];
  /** The usage of the summary calls that wrote it, summed (§1.4; absent when none reported one). */
  usage?: Usage;
  /** The model that made those calls, when the summarizer says. */
  model?: { provider: string; id: string };
}
