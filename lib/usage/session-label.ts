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
