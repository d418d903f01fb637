import "server-only";
/**
 * The detection step in front of the pi importer: which format a file is in, from its first
 * JSON objects (lib/formats/detect.ts), never from its name.
 *
 * Contract: `detectLines(lines, file)` reads ahead only until it can tell (the first object,
 * or up to DETECT_OBJECTS of them), then returns the format and a line stream for the pi
 * importer. pi files pass through untouched. Claude Code and Codex files are mapped record by
 * record (lib/formats mappers): each mapped header / entry becomes one JSON line carrying the
 * source line number, so the importer's own checks, limits and batching apply unchanged. Lines
 * that are not JSON objects are passed through as they are, so they are skipped and reported
 * as in pi files (with the cut-off note for a broken last line). A record the mapper refuses
 * fails the import with "file:line: what (field f)". `records()` counts the file's objects.
 */
import { DETECT_OBJECTS, detectFormat } from "@/lib/formats/detect";
import { createMapper } from "@/lib/formats/map-lines";
import { FormatError, type FormatId, type MappedItem } from "@/lib/formats/types";
import { parseJsonlLine } from "@/lib/session/jsonl";
import { entryError, type Lines } from "./parse";
import type { Line } from "./line-reader";

export interface DetectedLines {
  format: FormatId;
  lines: Lines;
  /** JSON objects read so far (all of them once `lines` is done). */
  records(): number;
}

async function* replay(ahead: Line[], rest: Lines, failure?: unknown): Lines {
  yield* ahead;
  if (failure !== undefined) throw failure;
  yield* rest;
}

export async function detectLines(source: Lines, file: string): Promise<DetectedLines> {
  const ahead: Line[] = [];
  const objects: Record<string, unknown>[] = [];
  let records = 0;
  let failure: unknown;
  while (objects.length < DETECT_OBJECTS) {
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
    if (!value) continue;
    objects.push(value);
    const early = detectFormat(objects);
    if (early === "pi" || early === "codex") break;
    if (objects.length === 1 && early === null) break;
  }
  const format = detectFormat(objects) ?? "pi";
  if (format === "pi" || failure !== undefined) return { format: "pi", lines: replay(ahead, source, failure), records: () => records };
  const mapper = createMapper(format);
  async function* mapped(): Lines {
    let firstLine = 0;
    const out = function* (items: MappedItem[]): Generator<Line> {
      for (const item of items) {
        if (item.kind === "header") yield { text: JSON.stringify(item.header), number: item.line || firstLine };
        else yield { text: JSON.stringify(item.entry), number: item.line };
      }
    };
    for await (const line of replay(ahead, source)) {
      const { value } = parseJsonlLine(line.text, line.number);
      if (!value) {
        if (line.text.trim() !== "") yield line;
        continue;
      }
      records += 1;
      firstLine ||= line.number;
      try {
        yield* out(mapper.push(value, line.number));
      } catch (error) {
        if (error instanceof FormatError) throw entryError(file, error.line, error.field ?? "record", error.what);
        throw error;
      }
    }
    yield* out(mapper.end());
  }
  return { format, lines: mapped(), records: () => records };
}
