/**
 * Mapping a whole file's lines with a FormatMapper, for tests, the CLI's file commands and small
 * inputs (imports stream through lib/db/import/formats.ts instead).
 * Pure: no network, disk or database access.
 *
 * Lines that are not JSON objects are skipped and reported with their line number, as pi files
 * are (session-engine.md §1.8); a last line cut off mid-record is reported the same way.
 */
import { parseJsonlLine, type SkippedLine, splitJoinedObjects } from "@/lib/session/file/jsonl";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { createClaudeCodeMapper } from "./claude-code/file";
import { createCodexMapper } from "./codex/map";
import { FormatDetector } from "./detect";
import { type FormatMapper, type FormatNote, isDocumentFormat, type LineFormatId, type MappedItem, type ThreadItem } from "./types";

export function createMapper(format: LineFormatId): FormatMapper {
  return format === "codex" ? createCodexMapper() : createClaudeCodeMapper();
}

export interface MappedThread {
  header: SessionHeader;
  entries: SessionEntry[];
}

export interface MappedFile extends MappedThread {
  format: LineFormatId;
  /** Sessions of their own the file holds (inline sidechain runs), in order of appearance. */
  sidechains: MappedThread[];
  /** What the mapping repaired, by line. */
  notes: FormatNote[];
  skipped: SkippedLine[];
  /** JSON objects read (the file's records). */
  records: number;
}

/** Maps a Claude Code or Codex file's text; null when it is neither (a pi file, or not a session). */
export function mapSessionText(text: string): MappedFile | null {
  const lines = text.split("\n");
  const objects: { value: Record<string, unknown>; line: number }[] = [];
  const skipped: SkippedLine[] = [];
  const joinedLines: FormatNote[] = [];
  lines.forEach((l, i) => {
    const { value, skip } = parseJsonlLine(l, i + 1);
    const joined = skip ? splitJoinedObjects(l) : undefined;
    if (joined) {
      joinedLines.push({ line: i + 1, message: `${joined.length} JSON objects on one line with no newline between them: all were read` });
      for (const piece of joined) objects.push({ value: parseJsonlLine(piece, i + 1).value!, line: i + 1 });
    } else if (skip) skipped.push(i === lines.length - 1 && !text.endsWith("\n") ? { ...skip, reason: `${skip.reason} — the file ends in the middle of this line` } : skip);
    if (value) objects.push({ value, line: i + 1 });
  });
  const detector = new FormatDetector();
  for (const o of objects) if (detector.push(o.value, o.line, lines[o.line - 1]!.length)) break;
  const { format } = detector.result();
  if (format === null || format === "pi" || isDocumentFormat(format)) return null;
  const mapper = createMapper(format);
  const items: MappedItem[] = [];
  for (const o of objects) items.push(...mapper.push(o.value, o.line));
  items.push(...mapper.end());
  // The main thread first, whatever comes first in the file.
  const threads = new Map<string, { header?: SessionHeader; entries: SessionEntry[] }>([["", { entries: [] }]]);
  const add = (key: string, item: ThreadItem) => {
    const t = threads.get(key) ?? { entries: [] };
    threads.set(key, t);
    if (item.kind === "header") t.header = item.header;
    else t.entries.push(item.entry);
  };
  for (const item of items) {
    if (item.kind === "side") add(item.session, item.item);
    else add("", item);
  }
  const [main, ...sides] = [...threads.values()] as MappedThread[];
  return { format, header: main!.header, entries: main!.entries, sidechains: sides, notes: [...joinedLines, ...mapper.notes()].sort((a, b) => a.line - b.line), skipped, records: objects.length };
}
