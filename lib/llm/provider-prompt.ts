/**
 * The hand-off from engine messages to the provider interface (session-engine.md §3, "Hand-off to the AI
 * SDK"): `LlmMessage`s → a `LanguageModelV3Prompt`, which every provider's `doStream` takes
 * (lib/llm/stream-assistant.ts calls it directly, without `streamText`). Pure: no network or disk.
 * Input is `convertToLlm` output (user / assistant / toolResult only).
 *
 * Contract (the prompt is what the AI SDK's own conversion of the same history gives, so a
 * provider sends the same request body; lib/llm/provider-request.test.ts proves it):
 * - system → one leading `system` message when given (even "").
 * - user → text parts and image `file` parts. Image data is base64 or an opaque `blob:` reference
 *   (session-engine.md §1.9); a reference cannot be sent, so it becomes the text "[image unavailable]". An
 *   image's media type is what its bytes say it is (PNG, JPEG, GIF, WebP, BMP, TIFF), else its
 *   `mimeType`. A user message with no parts left is one empty text part.
 * - assistant → text, reasoning and tool-call parts in block order; each toolCall maps to
 *   `{ toolCallId: id, toolName: name, input: arguments }`. Empty text/thinking blocks are dropped
 *   (providers reject empty blocks), and an assistant left with no parts is dropped. A thinking
 *   signature is passed on only for an Anthropic message (other providers' signatures mean
 *   nothing to Anthropic).
 * - toolResult → a tool-result part for the same toolCallId/toolName: text output, or
 *   error-text when isError; images in a successful result use content output.
 * - Tool calls and their results stay adjacent and in order: the results that follow an
 *   assistant are merged into ONE tool message ordered like the calls. A call with no result in
 *   the history (an aborted or failed turn) gets a synthetic error result "Tool call was
 *   interrupted", because every provider rejects a tool call that is not answered. A result
 *   whose call is not in the assistant right before it cannot be sent as a tool message either
 *   (providers reject an unmatched tool result), so it is kept as user text instead.
 *
 * Incremental: the converted form of each message is cached per message OBJECT (WeakMaps), so a
 * turn converts only the messages it has not seen; the rest of a call is one pass over
 * references. This is sound because messages are never mutated once they are in a session
 * tree: a prune replaces the tool-result objects it rewrites (lib/agent/compaction-check.ts),
 * the read model builds new objects on a rewrite, and a branch switch just sends other objects.
 * The returned prompt and its parts are shared between calls: callers and providers must not
 * mutate them.
 *
 * On top of that, the previous call's result is reused for the longest prefix of `messages`
 * that is the SAME objects, in the same order, as that call's (checked one by one, so a prune,
 * a branch switch or an edited history converts from the first differing message): a turn then
 * walks its messages once by reference instead of regrouping every tool call and result. One
 * previous call is kept per first-message object (a WeakMap: it goes with the session's cached
 * entries), so memory is bounded by the sessions held in memory.
 */
import type {
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import type { AssistantMessage, ImageContent, LlmMessage, TextContent, ToolCall, ToolResultMessage, UserMessage } from "@/lib/session/types";

export const INTERRUPTED_TOOL_RESULT = "Tool call was interrupted";
export const IMAGE_UNAVAILABLE = "[image unavailable]";

type UserPrompt = Extract<LanguageModelV3Message, { role: "user" }>;
type AssistantPrompt = Extract<LanguageModelV3Message, { role: "assistant" }>;
type ToolPrompt = Extract<LanguageModelV3Message, { role: "tool" }>;

/** A `blob:sha256:…` reference (oh-my-pi) is not image data; the engine never resolves it. */
export function isImageReference(data: string): boolean {
  return data.startsWith("blob:");
}

/** Leading bytes of the image formats providers are told apart by (null: any byte). */
const IMAGE_SIGNATURES: readonly { mediaType: string; bytes: readonly (number | null)[] }[] = [
  { mediaType: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47] },
  { mediaType: "image/jpeg", bytes: [0xff, 0xd8] },
  { mediaType: "image/gif", bytes: [0x47, 0x49, 0x46] },
  { mediaType: "image/webp", bytes: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50] },
  { mediaType: "image/bmp", bytes: [0x42, 0x4d] },
  { mediaType: "image/tiff", bytes: [0x49, 0x49, 0x2a, 0x00] },
  { mediaType: "image/tiff", bytes: [0x4d, 0x4d, 0x00, 0x2a] },
];

/** The media type the base64 `data` starts with, if it is one of IMAGE_SIGNATURES. */
export function sniffImageType(data: string): string | undefined {
  const head = Buffer.from(data.slice(0, 24), "base64");
  return IMAGE_SIGNATURES.find((s) => s.bytes.every((b, i) => i < head.length && (b === null || head[i] === b)))?.mediaType;
}

function imagePart(block: ImageContent): LanguageModelV3FilePart {
  return { type: "file", mediaType: sniffImageType(block.data) ?? block.mimeType, data: block.data };
}

const users = new WeakMap<UserMessage, UserPrompt>();
const assistants = new WeakMap<AssistantMessage, AssistantPrompt | null>();
const results = new WeakMap<ToolResultMessage, LanguageModelV3ToolResultPart>();
const orphans = new WeakMap<ToolResultMessage, UserPrompt>();

function cached<K extends object, V>(map: WeakMap<K, V>, key: K, make: (key: K) => V): V {
  if (map.has(key)) return map.get(key) as V;
  const value = make(key);
  map.set(key, value);
  return value;
}

function userPrompt(msg: UserMessage): UserPrompt {
  if (typeof msg.content === "string") return { role: "user", content: [{ type: "text", text: msg.content }] };
  const content: UserPrompt["content"] = [];
  for (const block of msg.content) {
    if (block.type === "text") {
      if (block.text) content.push({ type: "text", text: block.text });
    } else if (isImageReference(block.data)) {
      content.push({ type: "text", text: IMAGE_UNAVAILABLE });
    } else {
      content.push(imagePart(block));
    }
  }
  return { role: "user", content: content.length ? content : [{ type: "text", text: "" }] };
}

function assistantPrompt(msg: AssistantMessage): AssistantPrompt | null {
  const content: AssistantPrompt["content"] = [];
  for (const block of msg.content) {
    if (block.type === "text") {
      if (block.text) content.push({ type: "text", text: block.text });
    } else if (block.type === "thinking") {
      if (!block.thinking) continue;
      content.push(
        block.thinkingSignature && msg.provider === "anthropic"
          ? { type: "reasoning", text: block.thinking, providerOptions: { anthropic: { signature: block.thinkingSignature } } }
          : { type: "reasoning", text: block.thinking },
      );
    } else if (block.type === "toolCall") {
      content.push({ type: "tool-call", toolCallId: block.id, toolName: block.name, input: block.arguments ?? {} });
    }
  }
  return content.length ? { role: "assistant", content } : null;
}

function resultText(msg: ToolResultMessage): string {
  const text = msg.content
    .filter((b): b is TextContent => b.type === "text")
    .map((b) => b.text)
    .join("\n");
  return text || "(no output)";
}

function resultPart(msg: ToolResultMessage): LanguageModelV3ToolResultPart {
  const base = { type: "tool-result" as const, toolCallId: msg.toolCallId, toolName: msg.toolName };
  if (msg.isError) return { ...base, output: { type: "error-text", value: resultText(msg) } };
  if (!msg.content.some((b) => b.type === "image")) return { ...base, output: { type: "text", value: resultText(msg) } };
  const value: Extract<LanguageModelV3ToolResultOutput, { type: "content" }>["value"] = [];
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

function interruptedPart(call: ToolCall): LanguageModelV3ToolResultPart {
  return { type: "tool-result", toolCallId: call.id, toolName: call.name, output: { type: "error-text", value: INTERRUPTED_TOOL_RESULT } };
}

function orphanPrompt(msg: ToolResultMessage): UserPrompt {
  const label = msg.isError ? "Tool error" : "Tool result";
  return { role: "user", content: [{ type: "text", text: `[${label} for ${msg.toolName} (${msg.toolCallId})]: ${resultText(msg)}` }] };
}

const callsOf = new WeakMap<AssistantMessage, ToolCall[]>();

/**
 * A previous call: its messages, its prompt, and where each group of messages (a message, or an
 * assistant with the tool results that follow it) ended: `ends[g]` is the index after the
 * group's last message, `outEnds[g]` the prompt length after its output.
 */
interface PreviousCall {
  system: string | undefined;
  messages: readonly LlmMessage[];
  out: LanguageModelV3Prompt;
  ends: number[];
  outEnds: number[];
}

const previousCalls = new WeakMap<LlmMessage, PreviousCall>();

/** How many groups of `prev` are valid for `messages`: those that ended before the first difference. */
function reusableGroups(prev: PreviousCall, system: string | undefined, messages: readonly LlmMessage[]): number {
  if (prev.system !== system) return 0;
  const limit = Math.min(prev.messages.length, messages.length);
  let same = 0;
  while (same < limit && prev.messages[same] === messages[same]) same++;
  // A group is decided by its messages AND the one after it (which ends a run of tool results),
  // so it is valid only if that one is in the common prefix too.
  let groups = 0;
  while (groups < prev.ends.length && (prev.ends[groups] as number) < same) groups++;
  return groups;
}

export function toProviderPrompt(system: string | undefined, messages: readonly LlmMessage[]): LanguageModelV3Prompt {
  const first = messages[0];
  const prev = first && previousCalls.get(first);
  const kept = prev ? reusableGroups(prev, system, messages) : 0;
  let out: LanguageModelV3Prompt;
  let ends: number[];
  let outEnds: number[];
  let i: number;
  if (prev && kept > 0) {
    out = prev.out.slice(0, prev.outEnds[kept - 1]);
    ends = prev.ends.slice(0, kept);
    outEnds = prev.outEnds.slice(0, kept);
    i = ends[kept - 1] as number;
  } else {
    out = system === undefined ? [] : [{ role: "system", content: system }];
    ends = [];
    outEnds = [];
    i = 0;
  }
  while (i < messages.length) {
    i = convertGroup(messages, i, out);
    ends.push(i);
    outEnds.push(out.length);
  }
  if (first) previousCalls.set(first, { system, messages: messages.slice(), out, ends, outEnds });
  // A copy: the kept one is sliced by the next call, never changed, but callers get their own array.
  return out.slice();
}

/** Appends the prompt messages of the group starting at `start` to `out`; returns where the group ends. */
function convertGroup(messages: readonly LlmMessage[], start: number, out: LanguageModelV3Prompt): number {
  let i = start;
  const msg = messages[i] as LlmMessage;
  i++;
  if (msg.role === "user") {
    out.push(cached(users, msg, userPrompt));
    return i;
  }
  if (msg.role === "toolResult") {
    // Not directly after an assistant that made the call (see the header).
    out.push(cached(orphans, msg, orphanPrompt));
    return i;
  }
  const prompt = cached(assistants, msg, assistantPrompt);
  if (prompt) out.push(prompt);
  const calls = cached(callsOf, msg, (m) => m.content.filter((b): b is ToolCall => b.type === "toolCall"));
  if (calls.length === 0) return i;

  // Gather the run of tool results that follows this assistant.
  const matched = new Map<string, ToolResultMessage>();
  const stray: ToolResultMessage[] = [];
  while (i < messages.length && (messages[i] as LlmMessage).role === "toolResult") {
    const result = messages[i] as ToolResultMessage;
    i++;
    if (calls.some((c) => c.id === result.toolCallId) && !matched.has(result.toolCallId)) matched.set(result.toolCallId, result);
    else stray.push(result);
  }
  const tool: ToolPrompt = {
    role: "tool",
    content: calls.map((call) => {
      const result = matched.get(call.id);
      return result ? cached(results, result, resultPart) : interruptedPart(call);
    }),
  };
  out.push(tool);
  for (const orphan of stray) out.push(cached(orphans, orphan, orphanPrompt));
  return i;
}
