import "server-only";
/**
 * What a synced file holds beyond what an earlier sync stored, by mapping its whole lines again.
 *
 * Why map from the start: the Claude Code and Codex mappers keep state across records (one
 * response's records merge into one entry, ids named twice are renamed, a compaction waits for
 * the entry it keeps from), so the new lines alone cannot be mapped. Mapping is deterministic,
 * and the mapper's `push` results only depend on the records before, so the first `settled`
 * entries `push` returns are exactly the ones stored before and are skipped without being kept.
 * The rest — later `push` results and what `end()` still held — are the candidates: new ones
 * are appended, and the few that an earlier sync stored from `end()` (a response that was the
 * file's last) are compared with what is stored (append.ts).
 * pi files need no mapper: every line after the imported bytes is a new entry.
 *
 * Errors: a record the mapper refuses throws FormatError (line and field); a pi line without a
 * `type` or `id` throws an Error naming the line. Lines that are not JSON are skipped and
 * counted, as the import does.
 */
import { createMapper } from "@/lib/formats/map-lines";
import { idWithNul } from "@/lib/session/file/ids";
import { FormatError, type FormatId, isDocumentFormat, isObject } from "@/lib/formats/types";
import { parseJsonlLine, splitJoinedObjects } from "@/lib/session/file/jsonl";
import type { SessionEntry } from "@/lib/session/types";
import { sha256Prefix, WholeLineReader } from "./whole-lines";

/** A mapped entry and the line whose record made the mapper give it out (Infinity: `end()`). */
export interface Candidate {
  entry: SessionEntry;
  at: number;
}

/**
 * Where the response the file ends with begins, when `end()` had to close it (a Claude Code
 * response whose next record has not come, a Codex response before its token_count): its first
 * line, that line's byte offset, and how many entries `push` gave before it.
 */
export interface OpenResponse {
  line: number;
  start: number;
  settled: number;
  /** JSON records before it. */
  records: number;
}

export interface Remapped {
  /** Entries not among the first `settled` ones, in file order. */
  candidates: Candidate[];
  /** Entries no later record can change (the next sync's `settled`). */
  settled: number;
  /** Whole-line prefix read, its sha256, and the sha256 of the first `checkBytes` bytes (null: the file is shorter). */
  prefixBytes: number;
  prefixSha256: string;
  checkSha256: string | null;
  /** JSON records read (the whole prefix). */
  records: number;
  skippedLines: number;
  open: OpenResponse | null;
}

export interface RemapInput {
  file: string;
  format: FormatId;
  size: number;
  /** Bytes imported before: only lines after them are new (pi); their checksum is computed. */
  checkBytes: number;
  settled: number;
  signal?: AbortSignal;
}

/** An id with a NUL character cannot be stored: the line is refused, as the import refuses it. */
function refuseNulIds(entry: Record<string, unknown>, line: number): void {
  const bad = idWithNul(entry);
  if (bad) throw new FormatError(line, `${bad.name} contains a NUL character`, bad.field);
}

export async function remapFile(input: RemapInput): Promise<Remapped> {
  const reader = new WholeLineReader(input.file, { size: input.size, checkBytes: input.checkBytes, ...(input.signal ? { signal: input.signal } : {}) });
  const candidates: Candidate[] = [];
  let records = 0;
  let skippedLines = 0;
  let pushed = 0;
  // Per line number: its byte offset and the entries pushed before it (to cut at an open response).
  const starts: number[] = [];
  const before: number[] = [];
  const recordsBefore: number[] = [];
  const format = input.format;
  // Gemini CLI and opencode files are documents, synced whole (document-sync.ts), never line by line.
  if (isDocumentFormat(format)) throw new Error(`${input.file}: a ${format} document is not read line by line`);
  const mapper = format === "pi" ? null : createMapper(format);
  for await (const line of reader.lines()) {
    const { value: one, skip } = parseJsonlLine(line.text, line.number);
    // Two records written on one line are both read, as the import reads them.
    const joined = skip ? splitJoinedObjects(line.text) : undefined;
    if (skip && !joined) skippedLines += 1;
    for (const value of joined ? joined.map((p) => parseJsonlLine(p, line.number).value!) : one ? [one] : []) {
      records += 1;
      if (!mapper) {
        if (line.start < input.checkBytes) {
          if (value.type !== "session") pushed += 1;
          continue;
        }
        if (typeof value.type !== "string" || value.type === "") throw new FormatError(line.number, "entry has no type", "type");
        if (typeof value.id !== "string" || value.id === "") throw new FormatError(line.number, "entry has no id", "id");
        refuseNulIds(value, line.number);
        candidates.push({ entry: value as unknown as SessionEntry, at: line.number });
        pushed += 1;
        continue;
      }
      // A line's facts before its first record (a line may hold two).
      starts[line.number] ??= line.start;
      before[line.number] ??= pushed;
      recordsBefore[line.number] ??= records - 1;
      for (const item of mapper.push(value, line.number)) {
        if (item.kind !== "entry") continue;
        if (pushed >= input.settled) {
          refuseNulIds(item.entry as unknown as Record<string, unknown>, line.number);
          candidates.push({ entry: item.entry, at: line.number });
        }
        pushed += 1;
      }
    }
  }
  let open: OpenResponse | null = null;
  if (mapper) {
    let first = Number.POSITIVE_INFINITY;
    for (const item of mapper.end()) {
      if (item.kind !== "entry") continue;
      candidates.push({ entry: item.entry, at: Number.POSITIVE_INFINITY });
      if (item.entry.type === "message" && item.line < first) first = item.line;
    }
    if (Number.isFinite(first)) open = { line: first, start: starts[first] ?? 0, settled: before[first] ?? 0, records: recordsBefore[first] ?? 0 };
  }
  return {
    candidates,
    settled: pushed,
    prefixBytes: reader.prefixBytes,
    prefixSha256: reader.prefixSha256,
    checkSha256: reader.checkSha256,
    records,
    skippedLines,
    open,
  };
}

/**
 * Whether `stored` (as the database holds it) and `mapped` (the same id, mapped again) are the
 * same entry. Two differences are not changes: a label's parent (labels name their target; a
 * summary label is placed after whatever was last), and a compaction that kept nothing
 * (firstKeptEntryId = itself) now keeping from the entry after it (same context either way).
 */
export function sameEntry(stored: unknown, mapped: SessionEntry): boolean {
  if (!isObject(stored)) return false;
  const a: Record<string, unknown> = { ...stored };
  const b: Record<string, unknown> = { ...(mapped as unknown as Record<string, unknown>) };
  if (a.type === "label") {
    delete a.parentId;
    delete b.parentId;
  }
  if (a.type === "compaction" && a.firstKeptEntryId === a.id) {
    delete a.firstKeptEntryId;
    delete b.firstKeptEntryId;
  }
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (!isObject(x)) return x;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(x).sort()) if (x[k] !== undefined) out[k] = x[k];
    return out;
  });
}

/**
 * `remapped` without the response the file ends with (`open`): the candidates given before its
 * first line, and the file's facts up to that line, so it is taken whole on a later sync.
 */
export async function withoutOpenResponse(file: string, remapped: Remapped & { open: OpenResponse }): Promise<Remapped> {
  const { open } = remapped;
  return {
    ...remapped,
    candidates: remapped.candidates.filter((c) => c.at < open.line),
    settled: open.settled,
    prefixBytes: open.start,
    prefixSha256: await sha256Prefix(file, open.start),
    records: open.records,
    open: null,
  };
}
