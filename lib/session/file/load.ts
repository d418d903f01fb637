/**
 * Loading a session from JSONL text: parse → migrate → index (session-engine.md §1.8).
 * Pure: no network, disk or database access. O(n) in the number of lines.
 *
 * Throws NotASessionError when the input is not a session (session-engine.md §1.8: import rejects it),
 * UnsupportedVersionError for a version above 3 (the import refuses it too).
 * Otherwise it never throws: bad lines, and entries that cannot be tree nodes after migration
 * (no string id, or an id already used by an earlier entry), are dropped and reported in
 * `skipped` with their line numbers.
 */

import { type ParsedSession, parseSessionLines, parseSessionText, type SkippedLine } from "@/lib/session/file/jsonl";
import { type MigrateOptions, migrateToCurrentVersion, unsupportedVersion } from "@/lib/session/file/migrations";
import { SessionTree, type SessionTreeOptions } from "@/lib/session/tree/tree";
import type { FileEntry, SessionEntry, SessionHeader } from "@/lib/session/types";

export class NotASessionError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`Not a session file: ${reason}`);
    this.name = "NotASessionError";
    this.reason = reason;
  }
}

/** A session of a version Arbor cannot read (a later one: migrations.ts unsupportedVersion). */
export class UnsupportedVersionError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = "UnsupportedVersionError";
  }
}

export interface LoadedSession {
  header: SessionHeader;
  /** Migrated entries in file order (every one has a unique string id). */
  entries: SessionEntry[];
  skipped: SkippedLine[];
  /** True when a migration changed the data; the store must then rewrite it (session-engine.md §1.9). */
  migrated: boolean;
  /** Indexed tree; its leaf is the last entry (session-engine.md §1.6). */
  tree: SessionTree;
}

export type LoadOptions = SessionTreeOptions & MigrateOptions;

function finish(parsed: ParsedSession, opts?: LoadOptions): LoadedSession {
  const { header } = parsed;
  if (!header) throw new NotASessionError(parsed.reason ?? "no session header");
  const unsupported = unsupportedVersion(header);
  if (unsupported) throw new UnsupportedVersionError(unsupported, parsed.headerLine ?? 1);

  const fileEntries: FileEntry[] = [header, ...parsed.entries];
  const migrated = migrateToCurrentVersion(fileEntries, { uuid: opts?.uuid });

  const skipped = [...parsed.skipped];
  const entries: SessionEntry[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < parsed.entries.length; i++) {
    const entry = parsed.entries[i]!;
    const line = parsed.entryLines[i] ?? 0;
    const id: unknown = entry.id;
    if (typeof id !== "string" || id === "") {
      skipped.push({ line, reason: "entry has no id" });
    } else if (seen.has(id)) {
      skipped.push({ line, reason: `duplicate entry id ${id}` });
    } else {
      seen.add(id);
      entries.push(entry);
    }
  }
  skipped.sort((a, b) => a.line - b.line);

  return { header, entries, skipped, migrated, tree: new SessionTree(header, entries, opts) };
}

/** Loads a whole JSONL text. */
export function loadSession(text: string, opts?: LoadOptions): LoadedSession {
  return finish(parseSessionText(text), opts);
}

/** Same as loadSession, from lines already split on "\n" (e.g. a streaming reader). */
export function loadSessionFromLines(lines: Iterable<string>, opts?: LoadOptions): LoadedSession {
  return finish(parseSessionLines(lines), opts);
}
