import "server-only";
/**
 * The detection step in front of the pi importer: which format a file is in, from its first
 * records (lib/formats/detect.ts), never from its name.
 *
 * Contract: `detectLines(lines, file)` reads ahead only until it can tell (the pi header, or
 * the first conversation record within detection's window), then returns the format and a
 * line stream for the pi importer. pi files pass through untouched; a file that is no format
 * goes the pi way too, with `tried` (why each format does not fit) for the header check to
 * report. Claude Code and Codex files are mapped record by record (lib/formats mappers): each
 * mapped header / entry becomes one JSON line carrying the source line number, so the
 * importer's own checks, limits and batching apply unchanged. Lines that are not JSON objects
 * are passed through as they are, so they are skipped and reported as in pi files (with the
 * cut-off note for a broken last line). A record the mapper refuses fails the import with
 * "file:line: what (field f)". `records()` counts the file's objects.
 */
import { FormatDetector } from "@/lib/formats/detect";
import { createMapper } from "@/lib/formats/map-lines";
import { FormatError, type FormatId, type FormatNote, type MappedItem, type ThreadItem } from "@/lib/formats/types";
import type { SessionHeader } from "@/lib/session/types";
import { parseJsonlLine, splitJoinedObjects } from "@/lib/session/file/jsonl";
import { entryError, joinedNote, type Lines } from "./parse";
import type { Line } from "./line-reader";

export interface DetectedLines {
  format: FormatId;
  lines: Lines;
  /** JSON objects read so far (all of them once `lines` is done). */
  records(): number;
  /** When no format matched: why not, per format (for the "not a session file" message). */
  tried?: string[];
  /**
   * Sessions of their own the file holds (Claude Code sidechain runs written inline), complete
   * once `lines` is done: their header and entries as lines, in the order they appeared.
   * Held in memory until the main session is written.
   */
  sidechains(): SideThread[];
  /** What the mapping repaired (and lines holding several objects, all read), by line; complete once `lines` is done. */
  notes(): FormatNote[];
  /**
   * A mapped line format's entries that no later record can change, once `lines` is done: those
   * the mapper gave before the file's end (what lib/sync/remap.ts counts as `settled`). Absent
   * for pi files and documents, whose entries are all settled.
   */
  settled?(): number;
}

export interface SideThread {
  header: SessionHeader;
  lines: Line[];
}

async function* replay(ahead: Line[], rest: Lines, failure?: unknown): Lines {
  yield* ahead;
  if (failure !== undefined) throw failure;
  yield* rest;
}

export async function detectLines(source: Lines, file: string): Promise<DetectedLines> {
  const ahead: Line[] = [];
  const detector = new FormatDetector();
  let records = 0;
  let failure: unknown;
  while (!detector.done) {
    let next: IteratorResult<Line>;
    try {
      next = await source.next();
    } catch (error) {
      // Reported where the pi importer reports it (a too-long first line: "not a session file").
      failure = error;
      break;
    }
    if (next.done) break;
    ahead.push(next.value);
    const { value } = parseJsonlLine(next.value.text, next.value.number);
    if (value) detector.push(value, next.value.number, next.value.text.length);
  }
  const detection = detector.result();
  const format = detection.format;
  if (format === null || format === "pi" || failure !== undefined) {
    const tried = detection.tried ? { tried: detection.tried } : {};
    return { format: "pi", lines: replay(ahead, source, failure), records: () => records, sidechains: () => [], notes: () => [], ...tried };
  }
  const mapper = createMapper(format);
  const sides = new Map<string, SideThread>();
  const joinedLines: FormatNote[] = [];
  let settled = 0;
  async function* mapped(): Lines {
    let firstLine = 0;
    const lineOf = (item: ThreadItem): Line =>
      item.kind === "header" ? { text: JSON.stringify(item.header), number: item.line || firstLine } : { text: JSON.stringify(item.entry), number: item.line };
    const out = function* (items: MappedItem[]): Generator<Line> {
      for (const item of items) {
        if (item.kind !== "side") {
          // The importer reads this line before the mapper runs again: it takes the entry as it
          // is (a sidechain's lines wait for the main session, so they are parsed from text).
          yield item.kind === "entry" ? { ...lineOf(item), value: item.entry } : lineOf(item);
          continue;
        }
        const side = sides.get(item.session);
        if (side) side.lines.push(lineOf(item.item));
        else if (item.item.kind === "header") sides.set(item.session, { header: item.item.header, lines: [] });
      }
    };
    for await (const line of replay(ahead, source)) {
      const { value, skip } = parseJsonlLine(line.text, line.number);
      // Two records written on one line: both are mapped, and the report says so.
      const joined = skip ? splitJoinedObjects(line.text) : undefined;
      if (joined) joinedLines.push({ line: line.number, message: joinedNote(joined.length) });
      const values = joined ? joined.map((piece) => parseJsonlLine(piece, line.number).value!) : value ? [value] : [];
      if (values.length === 0) {
        if (line.text.trim() !== "") yield line;
        continue;
      }
      firstLine ||= line.number;
      for (const v of values) {
        records += 1;
        try {
          const items = mapper.push(v, line.number);
          for (const item of items) if (item.kind === "entry") settled += 1;
          yield* out(items);
        } catch (error) {
          if (error instanceof FormatError) throw entryError(file, error.line, error.field ?? "record", error.what);
          throw error;
        }
      }
    }
    yield* out(mapper.end());
  }
  const notes = () => [...joinedLines, ...mapper.notes()].sort((a, b) => a.line - b.line);
  return { format, lines: mapped(), records: () => records, sidechains: () => [...sides.values()], notes, settled: () => settled };
}
