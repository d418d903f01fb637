/**
 * Checks shared by the format adapters' tests (lib/formats/*.test.ts) on a mapped session's
 * entries: a linear chain of unique ids, and every tool call answered by the results right
 * after its response, in call order (docs/formats.md: tool calls and results paired).
 */
import { expect } from "vitest";
import type { AgentMessage, SessionEntry, ToolResultMessage } from "@/lib/session/types";

export const messagesOf = (entries: readonly SessionEntry[]): AgentMessage[] => entries.flatMap((e) => (e.type === "message" ? [e.message] : []));

/** Unique ids, each entry's parent the one before it. */
export function expectLinearChain(entries: readonly SessionEntry[]): void {
  const ids = new Set<string>();
  entries.forEach((e, i) => {
    expect(ids.has(e.id), `duplicate id ${e.id}`).toBe(false);
    ids.add(e.id);
    expect(e.parentId).toBe(i === 0 ? null : entries[i - 1]!.id);
  });
}

/** Every assistant message's tool calls are answered by the next messages: one result per call, same id and tool. */
export function expectCallsAnswered(entries: readonly SessionEntry[]): void {
  const msgs = messagesOf(entries);
  msgs.forEach((m, i) => {
    if (m.role !== "assistant") return;
    const calls = m.content.filter((p) => p.type === "toolCall");
    const results = msgs.slice(i + 1, i + 1 + calls.length) as ToolResultMessage[];
    expect(results.map((r) => [r.role, r.toolCallId, r.toolName])).toEqual(calls.map((c) => ["toolResult", c.id, c.name]));
  });
}
