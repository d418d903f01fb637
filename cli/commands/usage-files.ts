/**
 * `usage … PATH…`: the ledger rows of session files read straight from disk, without importing
 * them (any format Arbor reads; folders are walked for `*.jsonl` and `*.json`).
 *
 * Files are taken in the order of their first timestamp, and a response recorded in several
 * files (a resumed Claude Code session copies earlier records) is counted once, where it was
 * first seen: the same rule as ccusage's and the database ledger's (docs/usage.md).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { CliError, type CliIo } from "@/cli/command";
import { documentFormatOf, mapDocument } from "@/lib/formats/document";
import { mapSessionText } from "@/lib/formats/map-lines";
import type { JsonObject } from "@/lib/formats/types";
import { loadSession, NotASessionError } from "@/lib/session/file/load";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import type { LedgerRow } from "@/lib/usage/report";
import { firstOfEachResponse, usageRows } from "@/lib/usage/rows";

export interface FileSession {
  file: string;
  agent: string;
  header: SessionHeader;
  entries: SessionEntry[];
}

/** A file session's ledger rows (after `seen`'s responses are dropped), with its id and project. */
export interface FileSessionRows {
  session: FileSession;
  sessionId: string;
  rows: LedgerRow[];
}

/** The file's sessions: its own, then those it holds (Claude Code sidechain runs written inline). */
function readAny(file: string, text: string): FileSession[] | undefined {
  // Gemini CLI and opencode files are one JSON document each.
  // A JSONL file fails to parse as one document at its second line.
  if (/^\s*\{/.test(text)) {
    const doc = parseDocument(text);
    const format = doc === undefined ? null : documentFormatOf(doc);
    if (doc && format) {
      const mapped = mapDocument(format, doc);
      return [{ file, agent: format, header: mapped.header, entries: mapped.entries }];
    }
  }
  const mapped = mapSessionText(text);
  if (mapped) {
    const own = { file, agent: mapped.format, header: mapped.header, entries: mapped.entries };
    return [own, ...mapped.sidechains.map((t) => ({ file, agent: mapped.format, header: t.header, entries: t.entries }))];
  }
  try {
    const loaded = loadSession(text);
    return [{ file, agent: "pi", header: loaded.header, entries: loaded.entries }];
  } catch (error) {
    if (error instanceof NotASessionError) return undefined;
    throw error;
  }
}

function parseDocument(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** Ledger rows of `files`; files that are not sessions are reported on stderr and skipped. */
export async function rowsOfFiles(files: readonly string[], io: CliIo): Promise<LedgerRow[]> {
  return (await sessionRowsOfFiles(files, io)).flatMap((s) => s.rows);
}

/** The same, per session (in the order of their first timestamp). */
export async function sessionRowsOfFiles(files: readonly string[], io: CliIo): Promise<FileSessionRows[]> {
  const sessions: FileSession[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new CliError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    const found = readAny(file, text);
    if (found) sessions.push(...found);
    else io.err(`${file}: not a session file, skipped\n`);
  }
  const start = (s: FileSession) => Date.parse(s.header.timestamp) || Number.POSITIVE_INFINITY;
  sessions.sort((a, b) => start(a) - start(b));
  const seen = new Set<string>();
  return sessions.map((s) => {
    const sessionId = s.header.id || path.basename(s.file).replace(/\.[^.]+$/, "");
    const project = typeof s.header.cwd === "string" && s.header.cwd ? s.header.cwd : undefined;
    const rows = firstOfEachResponse(usageRows(s.header, s.entries), seen).map(
      (row): LedgerRow => ({ ...row, sessionId, agent: s.agent, ...(project ? { project } : {}) }),
    );
    return { session: s, sessionId, rows };
  });
}
