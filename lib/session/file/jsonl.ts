/**
 * Lenient JSONL parsing and v3 serialization of session files (session-engine.md §1.1, §1.8).
 * Pure: no network, disk or database access. Streaming-friendly: `parseSessionLines` takes any
 * iterable of lines, so a reader can feed it without holding the whole text.
 *
 * Parsing never throws. Blank lines are skipped silently; lines that are not JSON, not a JSON
 * object, or nested deeper than MAX_JSON_DEPTH are skipped and reported with their 1-based line
 * number. Unknown fields and
 * entry types are kept verbatim, so serialize(parse(x)) preserves them.
 */

import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { errorText } from "@/lib/text/error-text";

export interface SkippedLine {
  /** 1-based line number in the input. */
  line: number;
  reason: string;
}

export interface ParsedLine {
  value?: Record<string, unknown>;
  skip?: SkippedLine;
}

export interface ParsedSession {
  /** null ⇒ not a session (session-engine.md §1.8); `entries` is then empty and `reason` says why. */
  header: SessionHeader | null;
  /** Every object after the header, in file order (not yet migrated: v1 entries lack ids). */
  entries: SessionEntry[];
  skipped: SkippedLine[];
  /** 1-based source line of each entry, parallel to `entries`. */
  entryLines: number[];
  /** 1-based source line of the header (when there is one). */
  headerLine?: number;
  reason?: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The header check of session-engine.md §1.8: `{ type: "session", id: <string> }`. */
export function isSessionHeader(v: unknown): v is SessionHeader {
  return isObject(v) && v.type === "session" && typeof v.id === "string";
}

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}

/**
 * Deepest nesting of arrays and objects a line may have. JSON.parse itself copes with any depth,
 * but everything after it recurses (sanitizing, JSON.stringify for the database, token counting,
 * rendering) and would fail with "Maximum call stack size exceeded" far from the line at fault.
 * Real entries nest a few dozen levels at most.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * True when `root` nests deeper than `max` levels (the root object is level 1). Recursive, but
 * never more than `max` + 1 frames deep: a branch stops as soon as it passes `max`. (Walking
 * without a stack of [value, depth] pairs or Object.values arrays: 38 against 66 ms for the
 * bench's 100k entries.)
 */
export function nestsDeeperThan(root: unknown, max: number): boolean {
  return typeof root === "object" && root !== null && deeperThan(root, 1, max);
}

function deeperThan(value: object, depth: number, max: number): boolean {
  if (depth > max) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === "object" && child !== null && deeperThan(child, depth + 1, max)) return true;
    }
    return false;
  }
  // for…in without an own-property check: JSON.parse makes plain objects, whose prototype has
  // nothing enumerable (the check cost the whole gain).
  for (const key in value) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (typeof child === "object" && child !== null && deeperThan(child, depth + 1, max)) return true;
  }
  return false;
}

/** Parses one line; `{}` (neither value nor skip) for a blank line. */
export function parseJsonlLine(line: string, lineNumber: number): ParsedLine {
  const trimmed = line.trim();
  if (trimmed === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    const detail = errorText(err);
    return { skip: { line: lineNumber, reason: `invalid JSON: ${detail}` } };
  }
  return checkedObject(value, lineNumber);
}

/**
 * What parseJsonlLine gives for a line whose parse is `value`, without the text: the same
 * checks (a JSON object, nested at most MAX_JSON_DEPTH deep). For a line made from a value
 * (JSON.stringify of a mapped record, lib/db/import/formats.ts): its parse would be a copy.
 */
export function checkedObject(value: unknown, lineNumber: number): ParsedLine {
  if (!isObject(value)) {
    return { skip: { line: lineNumber, reason: `not a JSON object (got ${kindOf(value)})` } };
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    return { skip: { line: lineNumber, reason: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` } };
  }
  return { value };
}

/**
 * The texts of the JSON objects on a line that holds two or more of them with no newline
 * between them (`{…}{…}`: a write bug pi has shown, session-engine.md §1.8), else undefined —
 * also when anything but blanks lies between or after them, or a piece is not a JSON object.
 * One pass over the line, aware of strings and escapes.
 */
export function splitJoinedObjects(line: string): string[] | undefined {
  const pieces: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i += 1;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (depth === 0) {
        if (c !== 123) return undefined;
        start = i;
      }
      depth += 1;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth -= 1;
      if (depth < 0) return undefined;
      if (depth === 0) pieces.push(line.slice(start, i + 1));
    } else if (depth === 0 && c !== 32 && c !== 9 && c !== 13) return undefined;
  }
  if (depth !== 0 || inString || pieces.length < 2) return undefined;
  return pieces.every((p) => parseJsonlLine(p, 0).value !== undefined) ? pieces : undefined;
}

/** Parses a session from its lines (split on "\n"); line numbers count from 1. */
export function parseSessionLines(lines: Iterable<string>): ParsedSession {
  const skipped: SkippedLine[] = [];
  const entries: SessionEntry[] = [];
  const entryLines: number[] = [];
  let header: SessionHeader | null = null;
  let headerLine = 0;
  let sawObject = false;
  let lineNumber = 0;
  for (const line of lines) {
    lineNumber += 1;
    const { value, skip } = parseJsonlLine(line, lineNumber);
    const joined = skip ? splitJoinedObjects(line) : undefined;
    if (joined && sawObject) {
      // Two entries written on one line: both are read (lib/db/import.ts reports it).
      for (const piece of joined) {
        entries.push(parseJsonlLine(piece, lineNumber).value as unknown as SessionEntry);
        entryLines.push(lineNumber);
      }
      continue;
    }
    if (skip) skipped.push(skip);
    if (!value) continue;
    if (!sawObject) {
      sawObject = true;
      if (!isSessionHeader(value)) {
        return {
          header: null,
          entries: [],
          skipped,
          entryLines: [],
          reason: `line ${lineNumber}: the first JSON object is not a session header ({"type":"session","id":<string>})`,
        };
      }
      header = value;
      headerLine = lineNumber;
      continue;
    }
    entries.push(value as SessionEntry);
    entryLines.push(lineNumber);
  }
  if (!header) return { header: null, entries: [], skipped, entryLines: [], reason: "no JSON object found" };
  return { header, entries, skipped, entryLines, headerLine };
}

/** Session-engine.md §1.8: split on "\n" (a trailing "\r" is trimmed with the line). */
export function parseSessionText(text: string): ParsedSession {
  return parseSessionLines(text.split("\n"));
}

/** v3 JSONL: the header line, then one line per entry, ending with "\n" (session-engine.md §1.1). */
export function serializeSession(header: SessionHeader, entries: readonly SessionEntry[]): string {
  const lines = [JSON.stringify(header)];
  for (const e of entries) lines.push(JSON.stringify(e));
  return `${lines.join("\n")}\n`;
}
