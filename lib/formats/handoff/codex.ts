/**
 * A branch written as a Codex CLI rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`,
 * docs/formats.md "Codex CLI" and "Hand-off") that `codex resume <uuid>` opens.
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - Every line is `{ timestamp, type, payload }`. `session_meta` first (id, cwd, originator, CLI
 *   version, model provider), then one `turn_context` (cwd, policies, model).
 * - A compaction on the path: a `compacted` record whose `message` is the summary as Arbor stores
 *   it and whose `replacement_history` is the summary as the model read it (one user message), so
 *   Codex rebuilds the model's history from it; the kept messages follow.
 * - A prompt: a `response_item` user `message` (input_text / input_image) and its `event_msg`
 *   `user_message` (what Codex's own history view and prompt counting read). A response: its
 *   `message` (output_text) and `function_call` items, an `agent_message` event for its text,
 *   the calls' `function_call_output`s, then a `token_count` event that ends it (usage).
 * - A failed tool result is written as `{ output, metadata: { exit_code: 1 } }` (Codex has no
 *   error flag; its older shell outputs took this shape); results with images as a list of items.
 * - Thinking is not written: Codex replays only its own encrypted reasoning.
 */
import type { AssistantMessage, ImageContent, LlmMessage, TextContent, ToolResultMessage } from "@/lib/session/types";
import { dropThinking, type HandoffInput, type HandoffOutput, isoOf, planHandoff, textOf } from "./plan";
import type { JsonObject } from "@/lib/formats/types";

/** The Codex CLI version the written rollout names. */
export const CODEX_HANDOFF_VERSION = "0.142.0";
const DEFAULT_MODEL = "gpt-5.1-codex";

const pad = (n: number) => String(n).padStart(2, "0");

/** `YYYY/MM/DD` and the file-name time `YYYY-MM-DDThh-mm-ss` of `d` (UTC), as Codex names rollouts. */
function rolloutTime(d: Date): { folder: string; stamp: string } {
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return { folder: day.replace(/-/g, "/"), stamp: `${day}T${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCSeconds())}` };
}

function inputItems(content: string | (TextContent | ImageContent)[], textType: "input_text" | "output_text" = "input_text"): JsonObject[] {
  if (typeof content === "string") return [{ type: textType, text: content }];
  return content.map((c) => (c.type === "text" ? { type: textType, text: c.text } : { type: "input_image", image_url: /^(https?|data):/.test(c.data) ? c.data : `data:${c.mimeType};base64,${c.data}` }));
}

function outputOf(m: ToolResultMessage): string | JsonObject[] {
  if (m.content.some((c) => c.type === "image")) return inputItems(m.content);
  const text = textOf(m.content);
  return m.isError ? JSON.stringify({ output: text, metadata: { exit_code: 1 } }) : text;
}

function modelOf(messages: LlmMessage[]): string {
  const last = messages.filter((m): m is AssistantMessage => m.role === "assistant" && m.provider === "openai").at(-1);
  return last?.model || DEFAULT_MODEL;
}

export function writeCodex(input: HandoffInput): HandoffOutput {
  const plan = planHandoff(input);
  const notes = plan.notes;
  const messages = dropThinking(plan.messages, () => false, "Codex replays only its own encrypted reasoning", notes);
  const imageErrors = messages.filter((m) => m.role === "toolResult" && m.isError && m.content.some((c) => c.type === "image")).length;
  if (imageErrors > 0) notes.push(`${imageErrors} failed tool ${imageErrors === 1 ? "result holds" : "results hold"} images: written without the failure mark (Codex's list form has none).`);
  const sessionId = input.sessionId ?? input.newId();
  const start = input.now.toISOString();
  const model = modelOf(messages);
  const lines: JsonObject[] = [];
  const push = (timestamp: string, type: string, payload: JsonObject) => lines.push({ timestamp, type, payload });
  push(start, "session_meta", { id: sessionId, timestamp: start, cwd: input.cwd, originator: "arbor_handoff", cli_version: input.targetVersion ?? CODEX_HANDOFF_VERSION, source: "cli", model_provider: "openai" });
  push(start, "turn_context", { cwd: input.cwd, approval_policy: "on-request", sandbox_policy: { type: "workspace-write" }, model, summary: "auto" });
  if (plan.compaction) {
    const replacement = [{ type: "message", role: "user", content: [{ type: "input_text", text: plan.compactionText ?? plan.compaction.summary }] }];
    push(plan.compaction.timestamp, "compacted", { message: plan.compaction.summary, replacement_history: replacement });
  }
  let open: { usage: AssistantMessage["usage"]; ts: string } | undefined;
  const close = () => {
    if (!open) return;
    const u = open.usage;
    const last = { input_tokens: u.input + u.cacheRead, cached_input_tokens: u.cacheRead, output_tokens: u.output, reasoning_output_tokens: 0, total_tokens: u.input + u.cacheRead + u.output };
    push(open.ts, "event_msg", { type: "token_count", info: { total_token_usage: last, last_token_usage: last } });
    open = undefined;
  };
  for (const m of messages) {
    const ts = isoOf(m.timestamp, input.now);
    if (m.role === "toolResult") {
      push(ts, "response_item", { type: "function_call_output", call_id: m.toolCallId, output: outputOf(m) });
      continue;
    }
    close();
    if (m.role === "user") {
      push(ts, "response_item", { type: "message", role: "user", content: inputItems(m.content) });
      const images = typeof m.content === "string" ? [] : m.content.filter((c) => c.type === "image").map((c) => `data:${c.mimeType};base64,${c.data}`);
      push(ts, "event_msg", { type: "user_message", message: textOf(m.content), images });
      continue;
    }
    for (const c of m.content) {
      if (c.type === "text") {
        push(ts, "response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: c.text }] });
        push(ts, "event_msg", { type: "agent_message", message: c.text });
      } else if (c.type === "toolCall") {
        push(ts, "response_item", { type: "function_call", name: c.name, arguments: JSON.stringify(c.arguments), call_id: c.id });
      }
    }
    open = { usage: m.usage, ts };
  }
  close();
  const { folder, stamp } = rolloutTime(input.now);
  return {
    format: "codex",
    sessionId,
    fileName: `rollout-${stamp}-${sessionId}.jsonl`,
    folder,
    text: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
    notes,
  };
}
