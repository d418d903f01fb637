/**
 * Shapes shared by the format adapters (lib/formats): which format a file is in, and the
 * streaming mapper contract every non-pi format implements.
 * Pure: no network, disk or database access.
 *
 * Mapper contract:
 * - `push(record, line)` takes one parsed JSON object of the file (1-based source line) and
 *   returns what is ready, in file order: first the header (exactly once), then entries (and
 *   `side` items of other sessions the file holds, each with its own header first). It may
 *   hold a few records back (the parts of one assistant response, a compaction waiting for the
 *   entry it keeps from); `end()` returns whatever is still held. Memory stays bounded by one
 *   model response plus one short string per id that needs renaming.
 * - Entries are Arbor v3 entries (session-engine.md §1.4) with unique string ids and parents that come
 *   earlier in the output. Fields of the source that Arbor does not model are kept on the entry
 *   under `source` (or in `details` / `data`), so nothing is lost.
 * - A record that cannot be mapped (no `type`, a conversation record without its id) throws a
 *   FormatError naming the line and field; callers prefix the file name.
 */
import type { SessionEntry, SessionHeader } from "@/lib/session/types";

export type FormatId = "pi" | "claude-code" | "codex" | "gemini" | "opencode";

/** Formats whose file is one JSON document, read whole (document.ts), not line by line. */
export type DocumentFormatId = "gemini" | "opencode";

export const FORMAT_LABELS: Record<FormatId, string> = {
  pi: "pi / oh-my-pi session",
  "claude-code": "Claude Code session",
  codex: "Codex CLI session",
  gemini: "Gemini CLI session",
  opencode: "opencode session",
};

/** A format's tool as people call it ("Claude Code"): its label without " session". */
export function formatName(id: FormatId): string {
  return FORMAT_LABELS[id].replace(/ session$/, "");
}

/** Formats read record by record through a FormatMapper. */
export type LineFormatId = Exclude<FormatId, "pi" | DocumentFormatId>;

export function isDocumentFormat(format: FormatId): format is DocumentFormatId {
  return format === "gemini" || format === "opencode";
}

/** What a thread of a file maps to: its header (once, first), then its entries. */
export type ThreadItem = { kind: "header"; header: SessionHeader; line: number } | { kind: "entry"; entry: SessionEntry; line: number };

/**
 * A file's mapped items: its main thread's, and those of threads it holds that are sessions of
 * their own (`side`: a Claude Code sidechain run written inline, keyed by that session's id).
 * Consumers that only want the main thread skip `side` items.
 */
export type MappedItem = ThreadItem | { kind: "side"; session: string; item: ThreadItem };

export interface FormatMapper {
  readonly format: LineFormatId;
  push(record: Record<string, unknown>, line: number): MappedItem[];
  end(): MappedItem[];
  /** What the mapping repaired so far (a uuid used twice, a parent that is not there, a call without its output), by line. */
  notes(): FormatNote[];
}

/** Something a mapper repaired and the import reports: "line 12: uuid … is used again …". */
export interface FormatNote {
  line: number;
  message: string;
}

export class FormatError extends Error {
  readonly line: number;
  readonly field: string | undefined;
  /** The message without the line prefix. */
  readonly what: string;
  constructor(line: number, what: string, field?: string) {
    super(`line ${line}: ${what}${field ? ` (field ${field})` : ""}`);
    this.name = "FormatError";
    this.line = line;
    this.field = field;
    this.what = what;
  }
}

export type JsonObject = Record<string, unknown>;

/**
 * A whole document mapped at once (document.ts): the header, the entries in file order (a tree:
 * parents before children), and how many records of the file were read.
 */
export interface MappedDocument {
  format: DocumentFormatId;
  header: SessionHeader;
  entries: SessionEntry[];
  records: number;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** `value` without the keys listed (the ones a mapper moved into Arbor's fields). */
export function rest(value: JsonObject, taken: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (!taken.includes(k)) out[k] = v;
  return out;
}

/** Epoch ms of an ISO timestamp, or `fallback` when it does not parse. */
export function epochMs(iso: string | undefined, fallback: number): number {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? fallback : t;
}
