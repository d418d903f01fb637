/**
 * The session page's cost line (docs/usage.md "Session page"): the session's total with its
 * subagents rolled in, and how much of it the subagents spent. Pure.
 */
import { formatMicros } from "./prices";

export interface CostPart {
  costMicros: number;
  tokens: number;
  unpricedTokens: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "$12.40 incl. $3.10 in 4 subagents" (no "incl." without subagents); unpriced tokens are named, never priced. */
export function sessionCostLabel(own: CostPart, subagents: CostPart & { sessions: number }): string {
  const total = own.costMicros + subagents.costMicros;
  const unpriced = own.unpricedTokens + subagents.unpricedTokens;
  let text = formatMicros(total);
  if (subagents.sessions > 0) text += ` incl. ${formatMicros(subagents.costMicros)} in ${plural(subagents.sessions, "subagent", "subagents")}`;
  if (unpriced > 0) text += ` + ${unpriced.toLocaleString("en-US")} tokens price unknown`;
  return text;
}

/** One segment of the session page's cost strip: a call, or a run of consecutive calls (lib/db/usage/cost-strip.ts). */
export interface CostSegment {
  /** The run's first call's entry id. */
  key: string;
  /** "message" when every call of the run is a chat message; else the single call's kind, or "mixed". */
  kind: string;
  /** "#12 claude-sonnet-4-5" for one call ("#12 compaction · model" for a summary), "#1–#40" for a run. */
  label: string;
  /** Summed recorded cost; absent when no call of the run has a price. */
  cost?: number;
  tokens: number;
}
