/**
 * Streaming session migration to CURRENT_SESSION_VERSION = 3: the same result as
 * `migrateToCurrentVersion` (session-engine.md §1.7), one entry at a time, for imports that never hold the
 * whole file.
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - `createStreamMigrator(header)` returns the migrated header (a copy; the input is not
 *   changed) and `migrate(entry)`, to be called for every object after the header, in file
 *   order. `migrate` changes the entry in place (as the batch migration does) and returns it.
 * - v1 → v2: fresh ids from `newId` (default generateEntryId, unique within the file), a linear
 *   parent chain, and compaction `firstKeptEntryIndex` → `firstKeptEntryId`. The index counts
 *   the header as position 0, so entry k (1-based) is position k. Only v1 files keep state:
 *   the ids drawn so far (one short string per entry), needed to resolve those indexes.
 *   An index naming a later entry resolves to nothing, as in the batch migration (a v1 entry
 *   has no id before it is migrated).
 * - v2 → v3: message role `hookMessage` becomes `custom`.
 * - Version 3 (or later) files pass through unchanged; `changed` is false.
 */
import { generateEntryId, type TakenIds } from "@/lib/session/file/ids";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "@/lib/session/types";

export interface StreamMigrator {
  /** The header after migration (version 3). */
  readonly header: SessionHeader;
  /** The version the file was written with (`header.version ?? 1`). */
  readonly fromVersion: number;
  /** True when the file needed migrating (the stored form differs from the file). */
  readonly changed: boolean;
  migrate(entry: Record<string, unknown>): SessionEntry;
}

export interface StreamMigratorOptions {
  /** Entry id generator for v1 files; default generateEntryId (session-engine.md §1.6). */
  newId?: (taken: TakenIds) => string;
}

function renameHookMessage(entry: Record<string, unknown>): void {
  if (entry.type !== "message") return;
  const message = entry.message as Record<string, unknown> | undefined;
  if (message && typeof message === "object" && message.role === "hookMessage") message.role = "custom";
}

export function createStreamMigrator(header: SessionHeader, opts: StreamMigratorOptions = {}): StreamMigrator {
  const fromVersion = header.version ?? 1;
  const changed = fromVersion < CURRENT_SESSION_VERSION;
  const migrated: SessionHeader = changed ? { ...header, version: CURRENT_SESSION_VERSION } : header;
  if (!changed) {
    return { header: migrated, fromVersion, changed, migrate: (entry) => entry as SessionEntry };
  }

  const newId = opts.newId ?? ((taken: TakenIds) => generateEntryId(taken));
  // v1 only: ids[k - 1] is the id given to the entry at position k.
  const ids: string[] = [];
  const taken = new Set<string>();

  const migrateV1 = (entry: Record<string, unknown>): void => {
    const id = newId(taken);
    taken.add(id);
    entry.id = id;
    entry.parentId = ids.at(-1) ?? null;
    ids.push(id);
    const position = ids.length;
    if (entry.type === "compaction" && "firstKeptEntryIndex" in entry) {
      const index = entry.firstKeptEntryIndex;
      // Position 0 is the header; positions after this one are not migrated yet.
      if (typeof index === "number" && Number.isInteger(index) && index >= 1 && index <= position) {
        entry.firstKeptEntryId = ids[index - 1];
      }
      delete entry.firstKeptEntryIndex;
    }
  };

  return {
    header: migrated,
    fromVersion,
    changed,
    migrate(entry) {
      if (fromVersion < 2) migrateV1(entry);
      renameHookMessage(entry);
      return entry as SessionEntry;
    },
  };
}
