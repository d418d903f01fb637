/**
 * Gemini CLI message pieces → Arbor message parts (session-engine.md §1.5): prompt content, thoughts,
 * tool results and token counts of a chat recording (gemini-map.ts).
 * Pure: no network, disk or database access.
 *
 * - Content is the Gemini API's `PartListUnion`: a string, one part or a list of strings and
 *   parts. `text` → text; `inlineData` with an image type → image; any other part (a file
 *   reference, a function call or response, code) → its JSON as text, so nothing is dropped.
 * - Thoughts are `{ subject, description, timestamp }` summaries: one thinking block each,
 *   "**subject** description".
 * - A tool call's `result` is a list of parts, usually one `functionResponse` whose `response`
 *   holds `output` or `error`. A call without a result (cancelled before it ran, or still
 *   running when the file was written) is answered by an explicit result saying so:
 *   `isError` is true for status `error` / `cancelled`, for an `error` response, and for a call
 *   with no result at all.
 * - Tokens: Gemini counts cached tokens inside `input` and thoughts apart from `output`;
 *   Arbor's usage has input without the cached part (plus tool-use prompt tokens), output with
 *   the thoughts, cacheRead = cached, totalTokens = `total`.
 */
import type { ImageContent, TextContent, ThinkingContent, Usage } from "@/lib/session/types";
import { isObject, type JsonObject, num, str } from "./types";

export type PromptPart = TextContent | ImageContent;

function partsOf(content: unknown): unknown[] {
  if (content === undefined || content === null) return [];
  return Array.isArray(content) ? content : [content];
}

function partContent(part: unknown): PromptPart {
  if (typeof part === "string") return { type: "text", text: part };
  if (isObject(part)) {
    if (typeof part.text === "string") return { type: "text", text: part.text };
    const inline = part.inlineData;
    if (isObject(inline) && typeof inline.data === "string" && str(inline.mimeType)?.startsWith("image/")) {
      return { type: "image", mimeType: inline.mimeType as string, data: inline.data };
    }
  }
  return { type: "text", text: JSON.stringify(part) };
}

/** The parts of a message's `content` (a string stays a string, as the file has it). */
export function promptContent(content: unknown): string | PromptPart[] {
  if (typeof content === "string") return content;
  return partsOf(content).map(partContent);
}

/** The text of `content` (strings and text parts, joined), for an assistant's text block or a note. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return partsOf(content)
    .map((p) => (typeof p === "string" ? p : isObject(p) && typeof p.text === "string" ? p.text : ""))
    .join("");
}

export function thoughtPart(thought: unknown): ThinkingContent {
  if (!isObject(thought)) return { type: "thinking", thinking: typeof thought === "string" ? thought : JSON.stringify(thought) };
  const subject = str(thought.subject)?.trim();
  const description = str(thought.description) ?? "";
  return { type: "thinking", thinking: subject ? `**${subject}** ${description}`.trimEnd() : description };
}

/** Tool call statuses after which the call has run (or was stopped) and its result is final. */
const FINAL_STATUSES = new Set(["success", "error", "cancelled"]);

export interface GeminiToolResult {
  content: PromptPart[];
  isError: boolean;
}

function responseText(response: unknown): { text: string; isError: boolean } {
  if (isObject(response)) {
    if (typeof response.error === "string") return { text: response.error, isError: true };
    if (response.error !== undefined) return { text: JSON.stringify(response.error), isError: true };
    if (typeof response.output === "string") return { text: response.output, isError: false };
  }
  return { text: typeof response === "string" ? response : JSON.stringify(response), isError: false };
}

/** The result of one recorded tool call (`status`, `result`), never empty. */
export function toolResultOf(call: JsonObject): GeminiToolResult {
  const status = str(call.status) ?? "unknown";
  const content: PromptPart[] = [];
  let failed = false;
  for (const part of partsOf(call.result)) {
    if (isObject(part) && isObject(part.functionResponse)) {
      const r = responseText(part.functionResponse.response);
      failed ||= r.isError;
      content.push({ type: "text", text: r.text });
    } else content.push(partContent(part));
  }
  const isError = failed || status === "error" || status === "cancelled";
  if (content.length > 0) return { content, isError };
  const why =
    status === "cancelled"
      ? "Cancelled: the tool call did not run, and no result was recorded"
      : FINAL_STATUSES.has(status)
        ? `No result was recorded for this tool call (status ${status})`
        : `No result was recorded: the tool call was still ${status} when the session file was written`;
  return { content: [{ type: "text", text: why }], isError: status !== "success" };
}

/** Arbor usage of a Gemini `tokens` record (zeros when absent). */
export function usageOf(tokens: unknown): Usage {
  const t = isObject(tokens) ? tokens : {};
  const cached = num(t.cached);
  const input = Math.max(0, num(t.input) - cached) + num(t.tool);
  const output = num(t.output) + num(t.thoughts);
  return { input, output, cacheRead: cached, cacheWrite: 0, totalTokens: num(t.total) || input + output + cached };
}
