/**
 * classify: splits what a turn sends into the context-window bar's kinds.
 * Pure: no network, disk or database access.
 *
 * Kinds, decided per message in this order:
 * - "summaries": the compaction summary and branch summaries (by source);
 * - "new": what this call adds — the trailing user message, or the trailing run of tool results
 *   (the current step's results in a tool loop);
 * - "toolResults": every other tool result;
 * - "history": everything else (kept from before, or simply the history when nothing was compacted).
 * The system prompt (and the tool definitions, which the provider also counts) form the
 * "system" segment. Token numbers are our estimates (session-engine.md §4: chars / 4, an overestimate).
 */
import type { AgentToolDefinition } from "@/lib/agent/ports";
import type { MessageRef, Segment, SegmentKind } from "@/lib/types/inspector";
import { estimateTextTokens } from "@/lib/compaction/tokens";

export type ClassifyInput = Pick<MessageRef, "role" | "tokens" | "source">;

export interface ClassifyOptions {
  system?: string | null;
  tools?: readonly AgentToolDefinition[] | null;
  /** A compaction is in effect (the history segment is then "Kept history"). */
  compacted?: boolean;
}

export interface Classification {
  kinds: SegmentKind[];
  /** Non-empty segments, in bar order: system, summaries, history, tool results, new message. */
  segments: Segment[];
  /** Σ of the segments' tokens. */
  totalTokens: number;
}

export function systemTokens(system?: string | null, tools?: readonly AgentToolDefinition[] | null): number {
  return (system ? estimateTextTokens(system) : 0) + (tools?.length ? estimateTextTokens(JSON.stringify(tools)) : 0);
}

/** Index of the first message of the trailing "new" run (length when there is none). */
function newFrom(messages: readonly ClassifyInput[]): number {
  const last = messages.at(-1);
  if (!last) return 0;
  if (last.role === "user") return messages.length - 1;
  if (last.role !== "toolResult") return messages.length;
  let i = messages.length - 1;
  while (i > 0 && messages[i - 1]?.role === "toolResult") i--;
  return i;
}

export function classify(messages: readonly ClassifyInput[], opts: ClassifyOptions = {}): Classification {
  const start = newFrom(messages);
  const kinds = messages.map((m, i): SegmentKind => {
    if (m.source === "compaction" || m.source === "branchSummary") return "summaries";
    if (i >= start) return "new";
    return m.role === "toolResult" ? "toolResults" : "history";
  });

  const labels: Record<SegmentKind, string> = {
    system: opts.tools?.length ? "System prompt and tools" : "System prompt",
    summaries: "Summaries",
    history: opts.compacted ? "Kept history" : "History",
    toolResults: "Tool results",
    new: "New message",
  };
  const order: SegmentKind[] = ["system", "summaries", "history", "toolResults", "new"];
  const totals = new Map<SegmentKind, { tokens: number; count: number }>(order.map((k) => [k, { tokens: 0, count: 0 }]));
  const sys = systemTokens(opts.system, opts.tools);
  if (opts.system || opts.tools?.length) totals.set("system", { tokens: sys, count: 1 });
  messages.forEach((m, i) => {
    const t = totals.get(kinds[i]!)!;
    t.tokens += m.tokens;
    t.count += 1;
  });

  const segments: Segment[] = [];
  let totalTokens = 0;
  for (const kind of order) {
    const t = totals.get(kind)!;
    if (t.count === 0) continue;
    segments.push({ kind, label: labels[kind], tokens: t.tokens, count: t.count });
    totalTokens += t.tokens;
  }
  return { kinds, segments, totalTokens };
}
