/**
 * Detecting a JSONL session file's format from its first records, never from its name.
 * Pure: no network, disk or database access.
 *
 * Contract (docs/formats.md "Detection"):
 * - pi / oh-my-pi: the FIRST object is the `{ type: "session", id }` header (session-engine.md §1.8).
 * - Otherwise the first CONVERSATION record decides, looked for within a bounded window
 *   (DETECT_MAX_RECORDS objects and DETECT_MAX_BYTES of text, whichever ends first; a record is
 *   always read whole, so one large record — a pasted prompt with base64 images — never makes
 *   detection fail):
 *   - Codex CLI: `{ timestamp, type, payload }` with a Codex record type (`session_meta`,
 *     `response_item`, `event_msg`, `turn_context`, `compacted`) and a payload object;
 *   - Claude Code: a `user` / `assistant` / `system` record with a string `uuid` and a
 *     `parentUuid` key. Claude Code's other records (`summary`, `file-history-snapshot`,
 *     `queue-operation`, `last-prompt`, `permission-mode`, `ai-title`, `progress`, …) may come
 *     first, in any number: they are passed over. A window holding only such records (a file of
 *     summaries, say) is Claude Code too.
 * - When nothing matches, `tried` says for each format why not, with line numbers (empty when
 *   there was no JSON object at all: the caller says why, binary data or a cut header line).
 *
 * Single-document formats (one JSON document, not JSONL) are detected by their top-level shape
 * elsewhere, before this JSONL path is taken.
 */
import { isObject, type JsonObject, type LineFormatId } from "./types";

/** Objects and characters of text detection looks at before it gives up. */
export const DETECT_MAX_RECORDS = 64;
export const DETECT_MAX_BYTES = 4 * 1024 * 1024;

const CODEX_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);
const CLAUDE_CONVERSATION_TYPES = new Set(["user", "assistant", "system"]);
/** Claude Code records that are not part of the conversation (docs/formats.md lists what each is). */
export const CLAUDE_META_TYPES = new Set([
  "summary",
  "file-history-snapshot",
  "queue-operation",
  "last-prompt",
  "permission-mode",
  "mode",
  "progress",
  "bridge-session",
  "ai-title",
  "custom-title",
  "pr-link",
  "attachment",
  "tag",
  "agent-name",
]);

export function isPiHeader(o: JsonObject): boolean {
  return o.type === "session" && typeof o.id === "string";
}

function isCodexRecord(o: JsonObject): boolean {
  return typeof o.type === "string" && CODEX_TYPES.has(o.type) && isObject(o.payload);
}

function isClaudeConversation(o: JsonObject): boolean {
  return typeof o.type === "string" && CLAUDE_CONVERSATION_TYPES.has(o.type) && typeof o.uuid === "string" && "parentUuid" in o;
}

/** A Claude Code record that is not a conversation record: known meta types, or anything with a sessionId / leafUuid. */
function isClaudeMeta(o: JsonObject): boolean {
  if (typeof o.type !== "string") return false;
  return CLAUDE_META_TYPES.has(o.type) || typeof o.leafUuid === "string" || (typeof o.sessionId === "string" && !CODEX_TYPES.has(o.type));
}

export type Detection = { format: LineFormatId | "pi"; tried?: undefined } | { format: null; tried: string[] };

/** Detection fed one object at a time (streaming readers); `done` once it has decided or the window is full. */
export class FormatDetector {
  private records = 0;
  private chars = 0;
  private firstLine = 0;
  private decided: LineFormatId | "pi" | null = null;
  private claudeMeta = 0;
  private lastLine = 0;

  /** Takes the next JSON object (on source line `line`, `chars` long); true once detection is over. */
  push(o: JsonObject, line: number, chars = 0): boolean {
    if (this.done) return true;
    this.records += 1;
    this.chars += chars;
    this.lastLine = line;
    if (this.records === 1) {
      this.firstLine = line;
      if (isPiHeader(o)) this.decided = "pi";
    }
    if (this.decided === null) {
      if (isCodexRecord(o)) this.decided = "codex";
      else if (isClaudeConversation(o)) this.decided = "claude-code";
      else if (isClaudeMeta(o)) this.claudeMeta += 1;
    }
    return this.done;
  }

  get done(): boolean {
    return this.decided !== null || this.records >= DETECT_MAX_RECORDS || this.chars >= DETECT_MAX_BYTES;
  }

  /** The verdict on what was pushed (call when `done` or at the end of the input). */
  result(): Detection {
    if (this.decided) return { format: this.decided };
    if (this.records > 0 && this.claudeMeta === this.records) return { format: "claude-code" };
    if (this.records === 0) return { format: null, tried: [] };
    const window = `lines ${this.firstLine}–${this.lastLine} (${this.records} ${this.records === 1 ? "record" : "records"})`;
    return {
      format: null,
      tried: [
        `line ${this.firstLine}: the first JSON object is not a session header ({"type":"session","id":…})`,
        `not Claude Code: no user / assistant / system record with uuid and parentUuid in ${window}`,
        `not a Codex rollout: no {timestamp, type, payload} record of a Codex type in ${window}`,
      ],
    };
  }
}

/** The format of a file whose first JSON objects (in order, blank / bad lines left out) are `objects`. */
export function detectFormat(objects: readonly unknown[]): LineFormatId | "pi" | null {
  const d = new FormatDetector();
  for (const [i, o] of objects.entries()) {
    if (!isObject(o)) continue;
    if (d.push(o, i + 1)) break;
  }
  return d.result().format;
}
