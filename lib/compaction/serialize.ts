/**
 * serializeConversation: LLM messages → the plain-text transcript placed inside
 * `<conversation>` for summarization (session-engine.md §9).
 * Pure: no network, disk or database access.
 *
 * The input has already been through convertToLlm, so only user, assistant and toolResult
 * roles appear. Tool results are never truncated here (oh-my-pi relies on pruning, §8).
 */
import type { AssistantMessage, LlmMessage } from "@/lib/session/types";

export function serializeConversation(messages: LlmMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text =
        typeof message.content === "string"
          ? message.content
          : message.content
              .filter((b) => b.type === "text")
              .map((b) => b.text)
              .join("");
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      parts.push(...assistantParts(message));
    } else if (message.role === "toolResult") {
      const text = message.content
        .filter((b) => b.type === "text")
        .map((b) => b.text)
        .join("");
      if (text) parts.push(`[Tool result]: ${text}`);
    }
  }
  return parts.join("\n\n");
}

/** Thinking, then text, then tool calls — each part only when such blocks exist (session-engine.md §9). */
function assistantParts(message: AssistantMessage): string[] {
  const thinking: string[] = [];
  const text: string[] = [];
  const calls: string[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") thinking.push(block.thinking);
    else if (block.type === "text") text.push(block.text);
    else if (block.type === "toolCall") {
      const args = Object.entries(block.arguments ?? {})
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(", ");
      calls.push(`${block.name}(${args})`);
    }
  }
  const parts: string[] = [];
  if (thinking.length > 0) parts.push(`[Assistant thinking]: ${thinking.join("\n")}`);
  if (text.length > 0) parts.push(`[Assistant]: ${text.join("\n")}`);
  if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
  return parts;
}
