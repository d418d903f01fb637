/**
 * Detecting a session file's format from its first records, never from its name.
 * Pure: no network, disk or database access.
 *
 * - pi / oh-my-pi: the first object is the `{ type: "session", id }` header (session-engine.md §1.8).
 * - Codex CLI rollouts: every line is `{ timestamp, type, payload }` with a Codex record type
 *   (`session_meta`, `response_item`, `event_msg`, `turn_context`, `compacted`).
 * - Claude Code: records carry `type` plus Claude Code's own keys (`uuid` / `parentUuid` /
 *   `sessionId` on conversation records, `leafUuid` on summaries, `messageId` + `snapshot` on
 *   file-history snapshots). A file may start with summaries or snapshots, so several of the
 *   first objects are looked at.
 * Returns null when no format matches; the caller reports that as "not a session file".
 */
import { isObject, type JsonObject, type LineFormatId } from "./types";

/** How many leading objects detection looks at. */
export const DETECT_OBJECTS = 8;

const CODEX_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);

function isPiHeader(o: JsonObject): boolean {
  return o.type === "session" && typeof o.id === "string";
}

function isCodexRecord(o: JsonObject): boolean {
  return typeof o.type === "string" && CODEX_TYPES.has(o.type) && isObject(o.payload);
}

function isClaudeRecord(o: JsonObject): boolean {
  if (typeof o.type !== "string") return false;
  if ("parentUuid" in o && typeof o.uuid === "string") return true;
  if (o.type === "summary" && typeof o.leafUuid === "string") return true;
  if (o.type === "file-history-snapshot" && "snapshot" in o) return true;
  return typeof o.sessionId === "string" && (o.type === "queue-operation" || o.type === "user" || o.type === "assistant");
}

/** The format of a file whose first JSON objects (in order, blank / bad lines left out) are `objects`. */
export function detectFormat(objects: readonly unknown[]): LineFormatId | "pi" | null {
  const first = objects[0];
  if (!isObject(first)) return null;
  if (isPiHeader(first)) return "pi";
  if (isCodexRecord(first)) return "codex";
  const sample = objects.slice(0, DETECT_OBJECTS).filter(isObject);
  if (sample.some(isClaudeRecord) && sample.every((o) => typeof o.type === "string" && !isPiHeader(o))) return "claude-code";
  return null;
}
