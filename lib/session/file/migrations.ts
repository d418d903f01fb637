/**
 * Session file migrations to CURRENT_SESSION_VERSION = 3 (session-engine.md §1.7).
 * Pure: no network, disk or database access. Mutates the parsed objects in place and reports
 * whether anything changed; on `true` the store rewrites the session (session-engine.md §1.9).
 *
 * `fileEntries` is the whole file: the header at index 0, then the entries in file order.
 */

import { generateEntryId } from "@/lib/session/file/ids";
import { isSessionHeader } from "@/lib/session/file/jsonl";
import { CURRENT_SESSION_VERSION } from "@/lib/session/types";
import type { FileEntry, SessionHeader } from "@/lib/session/types";

/**
 * Why Arbor cannot read a header's `version`, or undefined when it can. Versions 1–3 are read
 * (session-engine.md §1.7; absent = 1); a later version may change entries in ways the
 * migrations do not know, so it is refused rather than read as if it were version 3. The one
 * wording for the import and the CLI: "unsupported session version 99 (Arbor reads versions 1 to 3)".
 */
export function unsupportedVersion(header: SessionHeader): string | undefined {
  const version: unknown = header.version;
  if (version === undefined || version === null) return undefined;
  if (typeof version === "number" && Number.isInteger(version) && version >= 1 && version <= CURRENT_SESSION_VERSION) return undefined;
  const shown = typeof version === "number" ? String(version) : JSON.stringify(version);
  return `unsupported session version ${shown} (Arbor reads versions 1 to ${CURRENT_SESSION_VERSION})`;
}

/**
 * v1 → v2: fresh ids, a linear parent chain, and compaction `firstKeptEntryIndex` resolved
 * to `firstKeptEntryId`. The index counts the header as position 0, and the target precedes
 * the compaction, so it already carries its new id when the compaction is reached.
 */
function migrateV1ToV2(header: SessionHeader, fileEntries: FileEntry[], uuid?: () => string): void {
  header.version = 2;
  const taken = new Set<string>();
  let prevId: string | null = null;
  for (let i = 1; i < fileEntries.length; i++) {
    const entry = fileEntries[i] as Record<string, unknown>;
    const id = generateEntryId(taken, uuid);
    taken.add(id);
    entry.id = id;
    entry.parentId = prevId;
    prevId = id;
    if (entry.type === "compaction" && "firstKeptEntryIndex" in entry) {
      const index = entry.firstKeptEntryIndex;
      if (typeof index === "number") {
        const target = fileEntries[index] as Record<string, unknown> | undefined;
        if (target !== undefined && target !== header && typeof target.id === "string") {
          entry.firstKeptEntryId = target.id;
        }
      }
      delete entry.firstKeptEntryIndex;
    }
  }
}

/** v2 → v3: the message role `hookMessage` is now `custom`. */
function migrateV2ToV3(header: SessionHeader, fileEntries: FileEntry[]): void {
  header.version = 3;
  for (let i = 1; i < fileEntries.length; i++) {
    const entry = fileEntries[i] as Record<string, unknown>;
    if (entry.type !== "message") continue;
    const message = entry.message as Record<string, unknown> | undefined;
    if (message && typeof message === "object" && message.role === "hookMessage") message.role = "custom";
  }
}

export interface MigrateOptions {
  /** UUID source for the ids v1 entries get (default crypto.randomUUID); the CLI seeds it for stable ids. */
  uuid?: () => string;
}

/** Returns true if anything changed. A list without a header at index 0 is left alone. */
export function migrateToCurrentVersion(fileEntries: FileEntry[], opts: MigrateOptions = {}): boolean {
  const header = fileEntries[0];
  if (!isSessionHeader(header)) return false;
  const version = header.version ?? 1;
  if (version >= CURRENT_SESSION_VERSION) return false;
  if (version < 2) migrateV1ToV2(header, fileEntries, opts.uuid);
  migrateV2ToV3(header, fileEntries);
  return true;
}
