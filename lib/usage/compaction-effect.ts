/**
 * What a compaction did, as its card in the chat says it (docs/usage.md "Where it shows"): what
 * its own summary calls cost, and how many tokens it took off the next turn's context — the
 * context it was cut from (`tokensBefore`) less the prompt the next reply on the path reported
 * (input + cache read + cache write). Pure.
 */
import type { SessionEntry } from "@/lib/session/types";
import { formatMicros } from "./prices";

/** The prompt tokens of the first assistant reply with a usage after `index` in `entries` (a path, oldest first). */
export function nextPromptTokens(entries: readonly SessionEntry[], index: number): number | undefined {
  for (let i = index + 1; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.type === "compaction") return undefined;
    if (e.type !== "message" || e.message.role !== "assistant") continue;
    const u = e.message.usage;
    const prompt = u ? u.input + u.cacheRead + u.cacheWrite : 0;
    if (prompt > 0) return prompt;
  }
  return undefined;
}

export interface SummaryCallCost {
  /** Undefined: price unknown. */
  costMicros?: number;
  tokens: number;
}

const group = (n: number) => n.toLocaleString("en-US");

/** The card's line, e.g. "Cost $0.04 (12,300 tokens) · took 151,200 tokens off the next turn (180,000 → 28,800)". */
export function compactionEffectText(input: { tokensBefore: number; call?: SummaryCallCost; nextPrompt?: number }): string {
  const parts: string[] = [];
  if (input.call) {
    const tokens = `${group(input.call.tokens)} tokens`;
    parts.push(input.call.costMicros === undefined ? `Price unknown (${tokens})` : `Cost ${formatMicros(input.call.costMicros)} (${tokens})`);
  } else {
    parts.push("Its cost is not recorded");
  }
  if (input.nextPrompt !== undefined && input.tokensBefore > 0) {
    const saved = input.tokensBefore - input.nextPrompt;
    parts.push(
      saved >= 0
        ? `took ${group(saved)} tokens off the next turn (${group(input.tokensBefore)} → ${group(input.nextPrompt)})`
        : `the next turn's context grew by ${group(-saved)} tokens (${group(input.tokensBefore)} → ${group(input.nextPrompt)})`,
    );
  } else {
    parts.push("the next turn's context is not known yet");
  }
  return parts.join(" · ");
}
