/**
 * Codex CLI `response_item` payloads and token counts → Arbor message parts (session-engine.md §1.5).
 * Pure: no network, disk or database access.
 *
 * - `message`: `input_text` / `output_text` → text, `input_image` (a data: URL) → image.
 * - `reasoning`: its `summary` texts (and `content` texts, when recorded) → one thinking block.
 *   `encrypted_content` is OpenAI's, not an Anthropic signature, so it is kept as
 *   `encryptedContent` on the block and never passed as `thinkingSignature`.
 * - `function_call`: `arguments` is a JSON string; an object is used as is, anything else becomes
 *   `{ arguments: <the string> }`. `custom_tool_call`: `{ input: <the string> }`.
 *   `local_shell_call`: its `action` object. `tool_search_call` (a client-side search of deferred
 *   tools): a `tool_search` call with its `arguments`; its `tool_search_output` names the tools found.
 * - `mcp_tool_call_end` events carry an MCP call's result (`Ok` content or `Err` text).
 * - Outputs: a string (often JSON `{ output, metadata: { exit_code } }`) or a list of content
 *   items (`input_text`, `input_image` with a data: URL; MCP's `text` / `image`).
 *   `isError` is true when the exit code is non-zero or `success` is false: Codex has no
 *   `is_error`, so this is approximated.
 */
import type { ImageContent, TextContent, ThinkingContent, ToolCall, Usage } from "@/lib/session/types";
import { isObject, type JsonObject, num, str } from "@/lib/formats/types";

function imageFromUrl(url: string): ImageContent {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m ? { type: "image", mimeType: m[1]!, data: m[2]! } : { type: "image", mimeType: "image/png", data: url };
}

export function messageParts(content: unknown): (TextContent | ImageContent)[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const out: (TextContent | ImageContent)[] = [];
  for (const c of content) {
    if (!isObject(c)) continue;
    if (typeof c.text === "string") out.push({ type: "text", text: c.text });
    else if (c.type === "input_image" && typeof c.image_url === "string") out.push(imageFromUrl(c.image_url));
    else if (c.type === "image" && typeof c.data === "string") out.push({ type: "image", data: c.data, mimeType: str(c.mimeType) ?? "image/png" });
    else out.push({ type: "text", text: JSON.stringify(c) });
  }
  return out;
}

export function textOf(parts: readonly (TextContent | ImageContent)[]): string {
  return parts.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** Codex wraps its own context (environment, AGENTS.md instructions, a skill's text, an aborted turn's note) as user messages. */
export function isCodexContextText(text: string): boolean {
  return /^\s*<(environment_context|user_instructions|permissions instructions|INSTRUCTIONS|skill|turn_aborted)\b/.test(text) || text.startsWith("# AGENTS.md instructions");
}

export function reasoningPart(payload: JsonObject): ThinkingContent {
  const texts: string[] = [];
  for (const key of ["summary", "content"] as const) {
    const list = payload[key];
    if (Array.isArray(list)) for (const s of list) if (isObject(s) && typeof s.text === "string") texts.push(s.text);
  }
  const part: ThinkingContent & { encryptedContent?: string } = { type: "thinking", thinking: texts.join("\n\n") };
  if (typeof payload.encrypted_content === "string") part.encryptedContent = payload.encrypted_content;
  return part;
}

function parseArguments(raw: unknown): Record<string, unknown> {
  if (isObject(raw)) return raw;
  if (typeof raw !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isObject(parsed)) return parsed;
  } catch {
    // Not JSON: kept as the string it is.
  }
  return { arguments: raw };
}

/** The tool call of a `function_call`, `custom_tool_call` or `local_shell_call`, else undefined. */
export function toolCallOf(payload: JsonObject): ToolCall | undefined {
  const id = str(payload.call_id) ?? str(payload.id);
  if (!id) return undefined;
  if (payload.type === "function_call") return { type: "toolCall", id, name: str(payload.name) ?? "unknown", arguments: parseArguments(payload.arguments) };
  if (payload.type === "custom_tool_call") return { type: "toolCall", id, name: str(payload.name) ?? "unknown", arguments: { input: payload.input } };
  if (payload.type === "local_shell_call") return { type: "toolCall", id, name: "local_shell", arguments: isObject(payload.action) ? payload.action : {} };
  if (payload.type === "tool_search_call") return { type: "toolCall", id, name: "tool_search", arguments: parseArguments(payload.arguments) };
  return undefined;
}

/** A `tool_search_output`: the tool definitions found, named in the text; the definitions as details. */
export function toolSearchOutputOf(payload: JsonObject): ToolOutput {
  const tools = Array.isArray(payload.tools) ? payload.tools : [];
  const names: string[] = [];
  for (const t of tools) {
    if (!isObject(t)) continue;
    const inner = Array.isArray(t.tools) ? t.tools.filter(isObject).map((x) => `${str(t.name) ?? ""}.${str(x.name) ?? "?"}`) : [str(t.name) ?? "?"];
    names.push(...inner);
  }
  const text = names.length > 0 ? `Found ${names.length} ${names.length === 1 ? "tool" : "tools"}: ${names.join(", ")}` : "No tools found";
  return { content: [{ type: "text", text }], isError: payload.status === "failed", details: { tools } };
}

/**
 * An `mcp_tool_call_end` event's result: `{ Ok: { content, isError } }` or `{ Err: "…" }` (also
 * seen: the result object itself, or an `error` string beside it).
 */
export function mcpResultOf(payload: JsonObject): ToolOutput {
  const result = payload.result;
  const err = isObject(result) && "Err" in result ? result.Err : payload.error;
  if (typeof err === "string" && err !== "") return { content: [{ type: "text", text: err }], isError: true };
  const ok = isObject(result) && isObject(result.Ok) ? result.Ok : isObject(result) ? result : {};
  const content = Array.isArray(ok.content) ? messageParts(ok.content) : [];
  const isError = ok.isError === true || ok.is_error === true;
  return { content, isError, ...(ok.structuredContent !== undefined ? { details: { structuredContent: ok.structuredContent } } : {}) };
}

export function isOutputItem(payload: JsonObject): boolean {
  return typeof payload.type === "string" && payload.type.endsWith("_output") && typeof payload.call_id === "string";
}

export interface ToolOutput {
  content: (TextContent | ImageContent)[];
  isError: boolean;
  details?: unknown;
}

export function toolOutputOf(output: unknown): ToolOutput {
  if (typeof output === "string") {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isObject(parsed) && typeof parsed.output === "string") {
        const meta = isObject(parsed.metadata) ? parsed.metadata : undefined;
        const code = meta?.exit_code;
        return { content: [{ type: "text", text: parsed.output }], isError: typeof code === "number" && code !== 0, ...(meta ? { details: meta } : {}) };
      }
    } catch {
      // Plain text output.
    }
    return { content: [{ type: "text", text: output }], isError: false };
  }
  if (Array.isArray(output)) return { content: messageParts(output), isError: false };
  if (isObject(output)) {
    const inner = output.content ?? output.output;
    const base = toolOutputOf(typeof inner === "string" || Array.isArray(inner) ? inner : JSON.stringify(output));
    return { ...base, isError: base.isError || output.success === false };
  }
  return { content: [], isError: false };
}

/** `token_count` → usage of the response it ends (`last_token_usage`; OpenAI counts cached input inside input). */
export function usageOfTokenCount(payload: JsonObject): Usage | undefined {
  const info = payload.info;
  if (!isObject(info) || !isObject(info.last_token_usage)) return undefined;
  const u = info.last_token_usage;
  const cached = num(u.cached_input_tokens);
  const usage: Usage = { input: Math.max(0, num(u.input_tokens) - cached), output: num(u.output_tokens), cacheRead: cached, cacheWrite: 0 };
  usage.totalTokens = num(u.total_tokens) || usage.input + usage.output + usage.cacheRead;
  return usage;
}
