import "server-only";
import { checkedObject, parseJsonlLine, splitJoinedObjects } from "@/lib/session/file/jsonl";
import type { StreamMigrator } from "@/lib/session/file/migrate-stream";
import { MAX_PERSIST_CHARS, type PersistCuts } from "@/lib/session/file/sanitize";
import { rowOfSanitized, toEntryRow } from "../store/entry-columns";
import { EntryLoader } from "./entry-load";
import type { SearchRows } from "./search-rows";
import { ImportError, } from "../errors";
import {
  entryError,
  type ImportState,
  joinedNote,
  type Lines,
  nulInIds,
  truncationNote,
} from "./parse";
import type { LineReader } from "./line-reader";
import type { BulkSql, } from "../store/sql";
import type { DetectedLines, } from "./formats";
import type { SourceCapture } from "./source-capture";
import { mayHoldSecret } from "@/lib/secrets/candidates";
import { type FindingRow, findingRowsOf, } from "../store/secret-findings";
import type { ImportOptions } from "./options";

/** Entries are handed to the COPY every `batchSize` entries or this many bytes, whichever comes first. */
const BATCH_BYTES = 8 * 1024 * 1024;

export interface Plan {
  file: string;
  migrator: StreamMigrator;
  arborLeafId: unknown;
  batchSize: number;
  opts: ImportOptions;
  detected: DetectedLines;
  capture: SourceCapture;
  /** Secrets found so far (seq in `i`), written with the entries. */
  secrets: FindingRow[];
}

/** Hands the rows encoded since the last flush to the COPY, then reports progress. */
async function flush(loader: EntryLoader, state: ImportState, plan: Plan, reader: LineReader): Promise<void> {
  if (state.batchCount === 0) return;
  await loader.flush();
  state.batchCount = 0;
  state.batchBytes = 0;
  plan.opts.onProgress?.({ bytes: reader.bytesRead, entries: state.count, ...(plan.opts.totalBytes ? { totalBytes: plan.opts.totalBytes } : {}) });
}

/**
 * The line itself as the entry's JSON when storing it is the same as storing toPgJson of the
 * sanitized entry: the entry is not migrated, sanitizing cannot change it (no line is longer
 * than MAX_PERSIST_CHARS, so no string is; neither dropped key occurs), and it has no `\u`
 * escape (U+0000 and lone surrogates need toPgJson's replacement; a key could hide behind one).
 * Saves re-serialising every entry. Else undefined.
 */
function storableLine(text: string, migrated: boolean): string | undefined {
  if (migrated || text.length > MAX_PERSIST_CHARS) return undefined;
  if (text.includes("\\u") || text.includes("partialJson") || text.includes("jsonlEvents")) return undefined;
  return text;
}

/** Adds one entry (JSON object `value`, whose text is `text`, from line `number`) to the COPY. */
async function addEntry(loader: EntryLoader, value: Record<string, unknown>, text: string, number: number, plan: Plan, state: ImportState): Promise<void> {
  const { file, migrator } = plan;
  if (typeof value.type !== "string" || value.type === "") throw entryError(file, number, "type", "entry has no type");
  if (migrator.fromVersion >= 2 && (typeof value.id !== "string" || value.id === "")) {
    throw entryError(file, number, "id", "entry has no id");
  }
  const entry = migrator.migrate(value);
  const nul = nulInIds(file, number, text, entry as unknown as Record<string, unknown>);
  if (nul) throw nul;
  const first = state.firstLine.get(entry.id);
  if (first !== undefined) {
    throw new ImportError({
      code: "duplicate_id",
      file,
      line: number,
      field: "id",
      message: `${file}:${number}: duplicate entry id ${entry.id} (first used on line ${first})`,
    });
  }
  // A line sanitizing cannot change is stored as the file wrote it (no cuts to report); any
  // other entry is sanitized, and what the sanitizing cut is reported.
  const json = storableLine(text, migrator.changed);
  let row: ReturnType<typeof toEntryRow>;
  if (json === undefined) {
    const cuts: PersistCuts = { strings: 0, charsRemoved: 0, longest: 0 };
    row = toEntryRow(entry, cuts);
    state.noteCuts(number, row.id, cuts);
  } else {
    row = rowOfSanitized(entry);
  }
  loader.add(row, state.count, json);
  // The scan of the import's stream (docs/secrets.md): the pre-filter on the line as read, the
  // scanner on the stored entry only when it may hold a credential.
  if (mayHoldSecret(text)) plan.secrets.push(...(await findingRowsOf(row.data, state.count)));
  state.count += 1;
  state.add(row, text.length);
  state.firstLine.set(entry.id, number);
}

export async function importEntries(loader: EntryLoader, lines: Lines, reader: LineReader, plan: Plan, state: ImportState): Promise<void> {
  for await (const line of lines) {
    const { text, number } = line;
    const { value, skip } = line.value ? checkedObject(line.value, number) : parseJsonlLine(text, number);
    // Two objects written on one line (a pi write bug): both are entries, and the report says so.
    const joined = skip ? splitJoinedObjects(text) : undefined;
    if (joined) {
      state.repair({ line: number, message: joinedNote(joined.length) });
      for (const piece of joined) await addEntry(loader, parseJsonlLine(piece, number).value!, piece, number, plan, state);
    } else if (skip) state.skip(line.unterminated ? { ...skip, reason: `${skip.reason}${truncationNote(line)}` } : skip);
    if (value) await addEntry(loader, value, text, number, plan, state);
    if (state.batchCount >= plan.batchSize || state.batchBytes >= BATCH_BYTES) await flush(loader, state, plan, reader);
  }
  await flush(loader, state, plan, reader);
}

/** All entries through one COPY; any failure aborts it (the transaction then rolls back). */
export async function loadEntries(
  sql: BulkSql,
  lines: Lines,
  reader: LineReader,
  plan: Plan,
  state: ImportState,
  target: { sessionId: string; search?: SearchRows },
): Promise<void> {
  const loader = EntryLoader.open(sql, target.sessionId, target.search);
  try {
    await importEntries(loader, lines, reader, plan, state);
    plan.opts.signal?.throwIfAborted();
    await loader.finish();
  } catch (error) {
    loader.abort(error);
    throw error;
  }
}

export function leafOf(plan: Plan, state: ImportState): string | null {
  const wanted = plan.arborLeafId;
  if (wanted === null) return null; // exported after a reset of the leaf
  if (typeof wanted === "string" && state.firstLine.has(wanted)) return wanted;
  return state.lastId;
}

