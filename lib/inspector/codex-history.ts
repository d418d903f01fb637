/**
 * A Codex `compacted` record's `replacement_history`: the items Codex sent the model in place
 * of the conversation before it. The inspector's reconstruction shows exactly these where an
 * Arbor compaction would show its summary message (docs/formats.md).
 * Pure: no network, disk or database access.
 *
 * Items map as the rollout's own `response_item`s do (lib/formats/codex/items.ts): user and developer
 * `message`s → user messages, an assistant `message`, `reasoning` and tool calls → one assistant
 * message per run of them, `*_output` → tool results. Unknown items become a user text holding
 * their JSON, so nothing Codex sent is hidden.
 */
import { contentHash } from "@/lib/content-address";
import type { SourcedMessage } from "@/lib/types/inspector";
import type { AssistantMessage, CompactionEntry, LlmMessage, SessionEntry } from "@/lib/session/types";
import { isOutputItem, messageParts, reasoningPart, toolCallOf, toolOutputOf } from "@/lib/formats/codex/items";
import { isObject } from "@/lib/formats/types";

export function codexHistoryMessages(history: readonly unknown[], timestamp: number): LlmMessage[] {
  const out: LlmMessage[] = [];
  const toolNames = new Map<string, string>();
  let assistant: AssistantMessage | null = null;
  const openAssistant = (): AssistantMessage => {
    if (assistant) return assistant;
    assistant = { role: "assistant", content: [], api: "openai-responses", provider: "openai", model: "unknown", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }, stopReason: "stop", timestamp };
    out.push(assistant);
    return assistant;
  };
  for (const item of history) {
    if (!isObject(item)) continue;
    const call = toolCallOf(item);
    if (item.type === "message" && item.role === "assistant") {
      for (const p of messageParts(item.content)) if (p.type === "text") openAssistant().content.push(p);
    } else if (item.type === "reasoning") {
      openAssistant().content.push(reasoningPart(item));
    } else if (call) {
      toolNames.set(call.id, call.name);
      const a = openAssistant();
      a.content.push(call);
      a.stopReason = "toolUse";
    } else if (isOutputItem(item)) {
      assistant = null;
      const o = toolOutputOf(item.output);
      const id = item.call_id as string;
      out.push({ role: "toolResult", toolCallId: id, toolName: toolNames.get(id) ?? "unknown", content: o.content, isError: o.isError, timestamp });
    } else {
      assistant = null;
      const content = item.type === "message" ? messageParts(item.content) : [{ type: "text" as const, text: JSON.stringify(item) }];
      out.push({ role: "user", content, timestamp });
    }
  }
  return out;
}

function replacementHistory(entry: SessionEntry | undefined): unknown[] | undefined {
  if (entry?.type !== "compaction") return undefined;
  const history = (entry as CompactionEntry).preserveData?.codexReplacementHistory;
  return Array.isArray(history) ? history : undefined;
}

/**
 * `messages` (a reconstructed context of `path`) with the summary message of a Codex compaction
 * replaced by its replacement history, each message sourced to the compaction entry.
 * Unchanged when the context has no such compaction.
 */
export function withCodexReplacementHistory(path: readonly SessionEntry[], messages: SourcedMessage[]): SourcedMessage[] {
  const at = messages.findIndex((m) => m.source === "compaction");
  if (at === -1) return messages;
  const compaction = path.find((e) => e.id === messages[at]!.sourceEntryId);
  const history = replacementHistory(compaction);
  if (!history || !compaction) return messages;
  const ts = Date.parse(compaction.timestamp) || 0;
  const replaced = codexHistoryMessages(history, ts).map(
    (message): SourcedMessage => ({ message, hash: contentHash(message), sourceEntryId: compaction.id, source: "compaction" }),
  );
  return [...messages.slice(0, at), ...replaced, ...messages.slice(at + 1)];
}
