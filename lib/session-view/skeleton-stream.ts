/**
 * The skeleton as lines (NDJSON), for sessions too large to embed in the page:
 * `GET /api/sessions/[id]/skeleton?format=ndjson` sends it, the browser reads and decodes it
 * line by line between other work, so no single task parses megabytes.
 * Pure: no network, disk or database access.
 *
 * Format:
 * - line 1: the header, a JSON object (the route's payload without `rows`);
 * - every further line: a block of up to STREAM_BLOCK rows in wire form (skeleton-wire.ts),
 *   encoded on its own, so each block decodes on its own (a chunk of the cached skeleton).
 * Every line ends with "\n". A line that is not what it should be is an error naming the line.
 */
import { encodeRows } from "@/lib/session-view/skeleton-wire";
import type { WireRow } from "@/lib/types/session-page";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";

/** Rows per line: about 200 KB of JSON, a few ms to parse and decode. */
export const STREAM_BLOCK = 2000;

export class SkeletonStreamError extends Error {
  constructor(line: number, problem: string) {
    super(`The session's tree could not be read (line ${line}: ${problem})`);
    this.name = "SkeletonStreamError";
  }
}

/** Rows kept in another form (skeleton-table.ts): `encode(from, to)` = encodeRows(slice(from, to)). */
export interface RowSource {
  readonly length: number;
  slice(from: number, to: number): SkeletonEntry[];
  encode(from: number, to: number): WireRow[];
}

/** The lines of a streamed skeleton: the header, then the rows in blocks (`rows.length` read once). */
export function* skeletonLines(header: object, rows: readonly SkeletonEntry[] | RowSource, block = STREAM_BLOCK): Generator<string> {
  yield `${JSON.stringify(header)}\n`;
  const count = rows.length;
  for (let i = 0; i < count; i += block) {
    const end = Math.min(i + block, count);
    yield `${JSON.stringify("encode" in rows ? rows.encode(i, end) : encodeRows(rows.slice(i, end)))}\n`;
  }
}

/** Splits text arriving in pieces into complete lines (without their "\n"). */
export class LineSplitter {
  /** Pieces of the unfinished line (joined once it ends: linear however small the pieces). */
  private rest: string[] = [];

  push(piece: string): string[] {
    if (!piece.includes("\n")) {
      this.rest.push(piece);
      return [];
    }
    const lines = piece.split("\n");
    lines[0] = this.rest.join("") + lines[0];
    const last = lines.pop() ?? "";
    this.rest = last === "" ? [] : [last];
    return lines;
  }

  /** The end of the text: a last line without "\n" means the stream was cut short. */
  end(line: number): void {
    if (this.rest.join("").trim() !== "") throw new SkeletonStreamError(line, "the response ended in the middle of a line");
  }
}

function parse(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SkeletonStreamError(line, "not JSON");
  }
}

/** The header line: a JSON object with a whole `count` of entries. */
export function parseStreamHeader<H extends { count: number }>(text: string): H {
  const value = parse(text, 1);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new SkeletonStreamError(1, "the header is not an object");
  const count = (value as { count?: unknown }).count;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0) throw new SkeletonStreamError(1, "the header has no entry count");
  return value as H;
}

function isWireRow(r: unknown): r is WireRow {
  if (!Array.isArray(r) || r.length < 7 || r.length > 8) return false;
  const [id, parent, kind, text, tokens, flags, dt, extra] = r as unknown[];
  return (
    typeof id === "string" &&
    (typeof parent === "string" || parent === 0 || parent === 1) &&
    typeof kind === "string" &&
    typeof text === "string" &&
    typeof tokens === "number" &&
    typeof flags === "number" &&
    (dt === null || typeof dt === "number") &&
    (extra === undefined || (typeof extra === "object" && extra !== null && !Array.isArray(extra)))
  );
}

/** A block line: a JSON array of wire rows. */
export function parseStreamBlock(text: string, line: number): WireRow[] {
  const value = parse(text, line);
  if (!Array.isArray(value)) throw new SkeletonStreamError(line, "a block of rows is not an array");
  for (let i = 0; i < value.length; i++) {
    if (!isWireRow(value[i])) throw new SkeletonStreamError(line, `row ${i + 1} is not a skeleton row`);
  }
  return value as WireRow[];
}
