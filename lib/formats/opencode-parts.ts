/**
 * opencode message parts → Arbor message parts, usage and tool results (opencode-map.ts).
 * Pure: no network, disk or database access.
 *
 * - `text` → text (a user's `synthetic` parts are what opencode added, such as the content of
 *   a file the prompt named; `ignored` parts were never sent to the model and stay in `source`).
 * - `reasoning` → thinking (provider metadata such as encrypted reasoning stays in `source`).
 * - `file` → an image when it is an image carried as a data: URL, else a one-line text
 *   reference `[file: name (type)]` (opencode sends a text file's content as synthetic text
 *   parts, which are kept as they are).
 * - `tool` → a tool call (`callID`, `tool`, `state.input`) and its result from `state`:
 *   `completed` → `output` (image attachments as images), `error` → `error` with `isError`;
 *   `pending` / `running` → an explicit "no result recorded" error result. A `task` call's
 *   `state.metadata.sessionId` names the child session that ran it (`subagentSessionId`).
 * - Tokens `{ input, output, reasoning, cache: { read, write }, total }` → usage (opencode's
 *   `output` already holds the reasoning tokens); `cost` is the total opencode recorded, kept as
 *   `usage.cost.total` (opencode records no split, so the per-kind costs are 0).
 */
import type { ImageContent, TextContent, Usage } from "@/lib/session/types";
import { isObject, type JsonObject, num, str } from "./types";

export type Part = TextContent | ImageContent;

function dataUrlImage(url: string, mime: string | undefined): ImageContent | undefined {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  const type = m?.[1] ?? mime;
  return m && type?.startsWith("image/") ? { type: "image", mimeType: type, data: m[2]! } : undefined;
}

export function filePart(part: JsonObject): Part {
  const mime = str(part.mime);
  const url = str(part.url) ?? "";
  const image = dataUrlImage(url, mime);
  if (image) return image;
  const source = isObject(part.source) ? str(part.source.path) : undefined;
  const name = str(part.filename) ?? source ?? (url.startsWith("data:") ? "attachment" : url);
  return { type: "text", text: `[file: ${name}${mime ? ` (${mime})` : ""}]` };
}

export interface ToolOutcome {
  content: Part[];
  isError: boolean;
  /** The child session a `task` call ran in, when recorded. */
  subagentSessionId?: string;
}

export function toolOutcome(part: JsonObject): ToolOutcome {
  const state = isObject(part.state) ? part.state : {};
  const status = str(state.status) ?? "unknown";
  const metadata = isObject(state.metadata) ? state.metadata : undefined;
  const child = str(metadata?.sessionId);
  const link = child ? { subagentSessionId: child } : {};
  if (status === "completed") {
    const output = typeof state.output === "string" ? state.output : JSON.stringify(state.output ?? "");
    const content: Part[] = [{ type: "text", text: output }];
    if (Array.isArray(state.attachments)) {
      for (const a of state.attachments) if (isObject(a)) content.push(filePart(a));
    }
    return { content, isError: false, ...link };
  }
  if (status === "error") {
    const error = typeof state.error === "string" ? state.error : JSON.stringify(state.error ?? "error");
    return { content: [{ type: "text", text: error }], isError: true, ...link };
  }
  return {
    content: [{ type: "text", text: `No result was recorded: the tool call was still ${status} when the session was saved` }],
    isError: true,
    ...link,
  };
}

export function usageOf(tokens: unknown, cost: unknown): Usage {
  const t = isObject(tokens) ? tokens : {};
  const cache = isObject(t.cache) ? t.cache : {};
  const usage: Usage = { input: num(t.input), output: num(t.output), cacheRead: num(cache.read), cacheWrite: num(cache.write) };
  usage.totalTokens = num(t.total) || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  if (typeof cost === "number" && Number.isFinite(cost)) usage.cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost };
  return usage;
}

/** Tokens the context held at the end of a response (what a compaction after it summarised). */
export function contextTokens(usage: Usage): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** opencode's `finish` reason → Arbor's stop reason. */
export function stopReasonOf(finish: unknown, hasCalls: boolean): "stop" | "length" | "toolUse" {
  if (finish === "length") return "length";
  if (finish === "tool-calls" || (finish === undefined && hasCalls)) return "toolUse";
  return "stop";
}
