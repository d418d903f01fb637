/**
 * Mapping a whole file's lines with a FormatMapper, for tests, the CLI's file commands and small
 * inputs (imports stream through lib/db/import/formats.ts instead).
 * Pure: no network, disk or database access.
 *
 * Lines that are not JSON objects are skipped and reported with their line number, as pi files
 * are (session-engine.md §1.8); a last line cut off mid-record is reported the same way.
 */
import { parseJsonlLine, type SkippedLine } from "@/lib/session/jsonl";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { createClaudeCodeMapper } from "./claude-code-map";
import { createCodexMapper } from "./codex-map";
import { DETECT_OBJECTS, detectFormat } from "./detect";
import type { FormatId, FormatMapper, MappedItem } from "./types";

export function createMapper(format: Exclude<FormatId, "pi">): FormatMapper {
  return format === "codex" ? createCodexMapper() : createClaudeCodeMapper();
}

export interface MappedFile {
  format: Exclude<FormatId, "pi">;
  header: SessionHeader;
  entries: SessionEntry[];
  skipped: SkippedLine[];
  /** JSON objects read (the file's records). */
  records: number;
}

/** Maps a Claude Code or Codex file's text; null when it is neither (a pi file, or not a session). */
export function mapSessionText(text: string): MappedFile | null {
  const lines = text.split("\n");
  const objects: { value: Record<string, unknown>; line: number }[] = [];
  const skipped: SkippedLine[] = [];
  lines.forEach((l, i) => {
    const { value, skip } = parseJsonlLine(l, i + 1);
    if (skip) skipped.push(i === lines.length - 1 && !text.endsWith("\n") ? { ...skip, reason: `${skip.reason} — the file ends in the middle of this line` } : skip);
    if (value) objects.push({ value, line: i + 1 });
  });
  const format = detectFormat(objects.slice(0, DETECT_OBJECTS).map((o) => o.value));
  if (format === null || format === "pi") return null;
  const mapper = createMapper(format);
  const items: MappedItem[] = [];
  for (const o of objects) items.push(...mapper.push(o.value, o.line));
  items.push(...mapper.end());
  let header: SessionHeader | undefined;
  const entries: SessionEntry[] = [];
  for (const item of items) {
    if (item.kind === "header") header = item.header;
    else entries.push(item.entry);
  }
  return { format, header: header!, entries, skipped, records: objects.length };
}
