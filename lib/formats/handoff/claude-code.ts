/**
 * A branch written as a Claude Code session file (`~/.claude/projects/<project>/<uuid>.jsonl`,
 * docs/formats.md "Claude Code" and "Hand-off") that `claude --resume <uuid>` opens.
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - One record a line, each with `uuid`, `parentUuid` (the record before it; null for the first),
 *   `sessionId`, `cwd`, `version`, `timestamp`, `isSidechain: false`, `userType: "external"`.
 * - A compaction on the path: a `system` / `compact_boundary` record (a root) and a `user` record
 *   with `isCompactSummary` holding the summary (its text as Arbor stores it, so importing the file
 *   back gives the same summary); the kept messages follow.
 * - A prompt: a `user` record (content blocks: text, base64 images). A response: ONE `assistant`
 *   record (`message.id`, `model`, `stop_reason`, `usage`, blocks text / thinking / tool_use). Each
 *   tool result: its own `user` record holding one `tool_result` block (`is_error`).
 * - Thinking is written only with its Anthropic signature (Claude's API refuses it without one).
 * - The project folder is the cwd with every character other than a letter or digit made "-",
 *   as Claude Code names it.
 */
import type { AssistantMessage, ImageContent, LlmMessage, StopReason, TextContent, ToolResultMessage, UserMessage } from "@/lib/session/types";
import { dropThinking, type HandoffInput, type HandoffOutput, isoOf, planHandoff } from "./plan";
import type { JsonObject } from "@/lib/formats/types";

/** The Claude Code version the written file names (its records all carry one). */
export const CLAUDE_HANDOFF_VERSION = "2.1.0";

/** Claude Code's folder for a project: the cwd with each non-alphanumeric character made "-". */
export function claudeProjectFolder(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

const STOP: Record<StopReason, string> = { stop: "end_turn", length: "max_tokens", toolUse: "tool_use", error: "end_turn", aborted: "end_turn" };

function imageBlock(c: ImageContent): JsonObject {
  if (/^https?:/.test(c.data)) return { type: "image", source: { type: "url", url: c.data } };
  return { type: "image", source: { type: "base64", media_type: c.mimeType, data: c.data } };
}

function userBlocks(content: UserMessage["content"]): JsonObject[] | string {
  if (typeof content === "string") return content;
  return content.map((c: TextContent | ImageContent) => (c.type === "text" ? { type: "text", text: c.text } : imageBlock(c)));
}

function assistantBlocks(m: AssistantMessage): JsonObject[] {
  return m.content.map((c) => {
    if (c.type === "text") return { type: "text", text: c.text };
    if (c.type === "thinking") return { type: "thinking", thinking: c.thinking, signature: c.thinkingSignature ?? "" };
    return { type: "tool_use", id: c.id, name: c.name, input: c.arguments };
  });
}

function resultBlock(m: ToolResultMessage): JsonObject {
  const onlyText = m.content.every((c) => c.type === "text");
  const content = onlyText ? m.content.map((c) => (c.type === "text" ? c.text : "")).join("") : m.content.map((c) => (c.type === "text" ? { type: "text", text: c.text } : imageBlock(c)));
  return { type: "tool_result", tool_use_id: m.toolCallId, content, is_error: m.isError };
}

/** Anthropic's model id of a response, or a stand-in Claude model for another provider's. */
function modelOf(m: AssistantMessage): string {
  return m.provider === "anthropic" && m.model ? m.model : "claude-sonnet-4-5";
}

export function writeClaudeCode(input: HandoffInput): HandoffOutput {
  const plan = planHandoff(input);
  const notes = plan.notes;
  const messages: LlmMessage[] = dropThinking(plan.messages, (b, m) => m.provider === "anthropic" && !!b.thinkingSignature, "only thinking with an Anthropic signature can be sent back to Claude", notes);
  const foreign = messages.filter((m) => m.role === "assistant" && m.provider !== "anthropic").length;
  if (foreign > 0) notes.push(`${foreign} ${foreign === 1 ? "response" : "responses"} of other providers' models ${foreign === 1 ? "is" : "are"} written as Claude's (the file records one Claude model per response).`);
  const sessionId = input.sessionId ?? input.newId();
  const version = input.targetVersion ?? CLAUDE_HANDOFF_VERSION;
  const base = { isSidechain: false, userType: "external", cwd: input.cwd, sessionId, version };
  const lines: JsonObject[] = [];
  let parent: string | null = null;
  const push = (record: JsonObject, timestamp: string) => {
    const uuid = input.newId();
    lines.push({ parentUuid: parent, ...base, ...record, uuid, timestamp });
    parent = uuid;
    return uuid;
  };
  if (plan.compaction) {
    const ts = plan.compaction.timestamp;
    push({ type: "system", subtype: "compact_boundary", content: "Conversation compacted", isMeta: false, level: "info", compactMetadata: { trigger: "manual", preTokens: plan.compaction.tokensBefore } }, ts);
    push({ type: "user", message: { role: "user", content: plan.compaction.summary }, isCompactSummary: true, isVisibleInTranscriptOnly: true }, ts);
  }
  for (const m of messages) {
    const ts = isoOf(m.timestamp, input.now);
    if (m.role === "user") push({ type: "user", message: { role: "user", content: userBlocks(m.content) } }, ts);
    else if (m.role === "toolResult") push({ type: "user", message: { role: "user", content: [resultBlock(m)] } }, ts);
    else {
      const usage = { input_tokens: m.usage.input, output_tokens: m.usage.output, cache_read_input_tokens: m.usage.cacheRead, cache_creation_input_tokens: m.usage.cacheWrite };
      const message = { id: `msg_${input.newId().replace(/-/g, "")}`, type: "message", role: "assistant", model: modelOf(m), content: assistantBlocks(m), stop_reason: STOP[m.stopReason], stop_sequence: null, usage };
      push({ type: "assistant", message }, ts);
    }
  }
  return {
    format: "claude",
    sessionId,
    fileName: `${sessionId}.jsonl`,
    folder: claudeProjectFolder(input.cwd),
    text: lines.map((l) => JSON.stringify(l)).join("\n") + (lines.length > 0 ? "\n" : ""),
    notes,
  };
}
