/**
 * The hand-off from engine messages to AI SDK v6 `ModelMessage`s (spec §3, "Hand-off to the AI SDK").
 * Pure: no network or disk. Input is `convertToLlm` output (user / assistant / toolResult only).
 *
 * Contract:
 * - user → text and image parts. Image data is base64 or an opaque `blob:` reference (spec §1.9);
 *   a reference cannot be sent, so it becomes the text part "[image unavailable]".
 * - assistant → text, reasoning and tool-call parts in block order; each toolCall maps to
 *   `{ toolCallId: id, toolName: name, input: arguments }`. Empty text/thinking blocks are dropped
 *   (providers reject empty blocks), and an assistant left with no parts is dropped.
 * - toolResult → a `tool` message with a tool-result part for the same toolCallId/toolName:
 *   text output, or error-text when isError; images in a successful result use content output.
 * - Tool calls and their results stay adjacent and in order: the results that follow an
 *   assistant are merged into ONE tool message ordered like the calls. A call with no result in
 *   the history (an aborted or failed turn) gets a synthetic error result "Tool call was
 *   interrupted", because every provider rejects a tool call that is not answered. A result
 *   whose call is not in the assistant right before it cannot be sent as a tool message either
 *   (providers reject an unmatched tool result), so it is kept as user text instead.
 */
import type { ReasoningPart, ToolResultPart } from "@ai-sdk/provider-utils";
import type { AssistantContent, ModelMessage, UserContent } from "ai";
import type { AssistantMessage, ImageContent, LlmMessage, TextContent, ToolCall, ToolResultMessage } from "@/lib/session/types";

export const INTERRUPTED_TOOL_RESULT = "Tool call was interrupted";
export const IMAGE_UNAVAILABLE = "[image unavailable]";

/** A `blob:sha256:…` reference (oh-my-pi) is not image data; the engine never resolves it. */
export function isImageReference(data: string): boolean {
  return data.startsWith("blob:");
}

function userContent(content: string | (TextContent | ImageContent)[]): UserContent {
  if (typeof content === "string") return content;
  const parts: Exclude<UserContent, string> = [];
  for (const block of content) {
    if (block.type === "text") {
      if (block.text) parts.push({ type: "text", text: block.text });
    } else if (isImageReference(block.data)) {
      parts.push({ type: "text", text: IMAGE_UNAVAILABLE });
    } else {
      parts.push({ type: "image", image: block.data, mediaType: block.mimeType });
    }
  }
  return parts.length ? parts : "";
}

function assistantContent(msg: AssistantMessage): Exclude<AssistantContent, string> {
  const parts: Exclude<AssistantContent, string> = [];
  for (const block of msg.content) {
    if (block.type === "text") {
      if (block.text) parts.push({ type: "text", text: block.text });
    } else if (block.type === "thinking") {
      if (!block.thinking) continue;
      const part: ReasoningPart = { type: "reasoning", text: block.thinking };
      // An Anthropic signature only means something to Anthropic; other providers' signatures
      // (e.g. OpenAI reasoning item ids) must not be passed to it.
      if (block.thinkingSignature && msg.provider === "anthropic") {
        part.providerOptions = { anthropic: { signature: block.thinkingSignature } };
      }
      parts.push(part);
    } else if (block.type === "toolCall") {
      parts.push({ type: "tool-call", toolCallId: block.id, toolName: block.name, input: block.arguments ?? {} });
    }
  }
  return parts;
}

function resultText(msg: ToolResultMessage): string {
  const text = msg.content
    .filter((b): b is TextContent => b.type === "text")
    .map((b) => b.text)
    .join("\n");
  return text || "(no output)";
}

function toolResultPart(msg: ToolResultMessage): ToolResultPart {
  const base = { type: "tool-result" as const, toolCallId: msg.toolCallId, toolName: msg.toolName };
  if (msg.isError) return { ...base, output: { type: "error-text", value: resultText(msg) } };
  const images = msg.content.filter((b): b is ImageContent => b.type === "image");
  if (images.length === 0) return { ...base, output: { type: "text", value: resultText(msg) } };
  const value: Extract<ToolResultPart["output"], { type: "content" }>["value"] = [];
  for (const block of msg.content) {
    if (block.type === "text") {
      if (block.text) value.push({ type: "text", text: block.text });
    } else if (isImageReference(block.data)) {
      value.push({ type: "text", text: IMAGE_UNAVAILABLE });
    } else {
      value.push({ type: "image-data", data: block.data, mediaType: block.mimeType });
    }
  }
  return { ...base, output: { type: "content", value } };
}

function interruptedPart(call: ToolCall): ToolResultPart {
  return {
    type: "tool-result",
    toolCallId: call.id,
    toolName: call.name,
    output: { type: "error-text", value: INTERRUPTED_TOOL_RESULT },
  };
}

function orphanResultMessage(msg: ToolResultMessage): ModelMessage {
  const label = msg.isError ? "Tool error" : "Tool result";
  return { role: "user", content: `[${label} for ${msg.toolName} (${msg.toolCallId})]: ${resultText(msg)}` };
}

export function toModelMessages(messages: readonly LlmMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  let i = 0;
  while (i < messages.length) {
    const msg = messages[i] as LlmMessage;
    i++;
    if (msg.role === "user") {
      out.push({ role: "user", content: userContent(msg.content) });
      continue;
    }
    if (msg.role === "toolResult") {
      // Not directly after an assistant that made the call (see the header).
      out.push(orphanResultMessage(msg));
      continue;
    }
    const content = assistantContent(msg);
    if (content.length) out.push({ role: "assistant", content });
    const calls = msg.content.filter((b): b is ToolCall => b.type === "toolCall");
    if (calls.length === 0) continue;

    // Gather the run of tool results that follows this assistant.
    const results = new Map<string, ToolResultMessage>();
    const orphans: ToolResultMessage[] = [];
    while (i < messages.length && (messages[i] as LlmMessage).role === "toolResult") {
      const result = messages[i] as ToolResultMessage;
      i++;
      if (calls.some((c) => c.id === result.toolCallId) && !results.has(result.toolCallId)) {
        results.set(result.toolCallId, result);
      } else {
        orphans.push(result);
      }
    }
    out.push({
      role: "tool",
      content: calls.map((call) => {
        const result = results.get(call.id);
        return result ? toolResultPart(result) : interruptedPart(call);
      }),
    });
    for (const orphan of orphans) out.push(orphanResultMessage(orphan));
  }
  return out;
}
