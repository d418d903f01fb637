/**
 * Pure helpers of the inspector panel: words for roles, kinds and segments, the token bar's
 * accessible label, and message text for display. Nothing here is told by colour alone: every
 * colour has a word beside it (ui.md).
 */
import type { ModelCallKind, Segment, SegmentKind } from "@/lib/types/inspector";
import type { LlmMessage } from "@/lib/session/types";
import { groupDigits } from "@/lib/text/group-digits";

export const ROLE_LABELS: Record<LlmMessage["role"], string> = {
  user: "User",
  assistant: "Assistant",
  toolResult: "Tool result",
};

export const CALL_KIND_LABELS: Record<ModelCallKind, string> = {
  chat: "Chat turn",
  history: "History summary",
  turnPrefix: "Turn-prefix summary",
  short: "Short summary",
  branch: "Branch summary",
};

/** Swatch colours per segment (always shown with the segment's words). */
export const SEGMENT_COLORS: Record<SegmentKind, string> = {
  system: "#6b7280",
  summaries: "var(--color-compaction)",
  history: "var(--color-accent)",
  toolResults: "#0f766e",
  new: "var(--color-branch)",
};

export function formatTokens(n: number): string {
  return `${groupDigits(Math.round(n))} ${Math.round(n) === 1 ? "token" : "tokens"}`;
}

export function formatNumber(n: number): string {
  return groupDigits(Math.round(n));
}

/** "System prompt 120 tokens, Kept history 3,400 tokens, …; 3,520 of 200,000 tokens". */
export function tokenBarLabel(segments: readonly Segment[], total: number, contextWindow: number | null): string {
  const parts = segments.map((s) => `${s.label} ${formatTokens(s.tokens)}`);
  const of = contextWindow ? `${formatNumber(total)} of ${formatTokens(contextWindow)} in the context window` : formatTokens(total);
  return `Context window: ${parts.length ? parts.join(", ") : "nothing sent"}; ${of} (estimated)`;
}

/**
 * Widths (percent of the bar) per segment: of the context window when known and large enough,
 * else of the total. Non-empty segments get at least 0.5% so they stay visible.
 */
export function segmentWidths(segments: readonly Segment[], total: number, contextWindow: number | null): number[] {
  const scale = contextWindow && contextWindow >= total ? contextWindow : Math.max(total, 1);
  return segments.map((s) => (s.tokens > 0 ? Math.max(0.5, (s.tokens / scale) * 100) : 0));
}

/** The message's text as sent: text blocks, thinking, tool calls and image markers, in order. */
export function messageText(message: LlmMessage): string {
  if (typeof message.content === "string") return message.content;
  const parts: string[] = [];
  for (const block of message.content) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "image") parts.push(`[image: ${block.mimeType}]`);
    else if (block.type === "thinking") parts.push(`[thinking]\n${block.thinking}`);
    else if (block.type === "toolCall") parts.push(`[tool call ${block.name} ${block.id}]\n${JSON.stringify(block.arguments, null, 2)}`);
  }
  return parts.join("\n\n");
}

/** One line for a collapsed message. */
export function messagePreview(message: LlmMessage, max = 120): string {
  const head = message.role === "toolResult" ? `${message.toolName}: ` : "";
  const text = (head + messageText(message)).replace(/\s+/g, " ").trim();
  if (text === "") return "(empty)";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

export function formatTime(iso: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : d.toLocaleString();
}
