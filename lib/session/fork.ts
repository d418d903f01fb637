/**
 * "Fork to new session" (session-engine.md §1.6 createBranchedSession, steps 2–5).
 * Pure: no network, disk or database access. Returns the new session's header and entries;
 * the caller (store) writes them. It never summarizes.
 */

import type { TakenIds } from "@/lib/session/file/ids";
import { CURRENT_SESSION_VERSION } from "@/lib/session/types";
import type { LabelEntry, SessionEntry, SessionHeader } from "@/lib/session/types";

export interface ForkInput {
  /** Root-first path to copy (getBranch(leafId)); must be non-empty. */
  path: readonly SessionEntry[];
  /** The source session's resolved label map (targetId → label). */
  labels: ReadonlyMap<string, string>;
  sourceHeader: SessionHeader;
  newSessionId: string;
  now: Date;
  /** Stored as the new header's `parentSession`. */
  parentSession: string;
  newId: (taken: TakenIds) => string;
}

export interface ForkedSession {
  header: SessionHeader;
  /** In file order; the last one is the new session's leaf (session-engine.md §1.6 step 5). */
  entries: SessionEntry[];
}

export function forkPath(input: ForkInput): ForkedSession {
  const timestamp = input.now.toISOString();
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: input.newSessionId,
    timestamp,
    cwd: input.sourceHeader.cwd,
    parentSession: input.parentSession,
  };

  // Step 3: the path without its label entries. An entry whose parent was a dropped label is
  // relinked to the nearest kept ancestor, so the copy stays one connected chain (decision:
  // otherwise the fork would start an orphan after every label; see the module report).
  const removed = new Set<string>();
  const entries: SessionEntry[] = [];
  let lastKeptId: string | null = null;
  for (const entry of input.path) {
    if (entry.type === "label") {
      removed.add(entry.id);
      continue;
    }
    const parentId = typeof entry.parentId === "string" && removed.has(entry.parentId) ? lastKeptId : entry.parentId;
    entries.push({ ...entry, parentId });
    lastKeptId = entry.id;
  }

  // Step 4: one fresh label entry per label whose target survived, chained after the path.
  const keptIds = new Set(entries.map((e) => e.id));
  const taken = new Set(keptIds);
  for (const [targetId, label] of input.labels) {
    if (!keptIds.has(targetId)) continue;
    const id = input.newId(taken);
    taken.add(id);
    const labelEntry: LabelEntry = { type: "label", id, parentId: lastKeptId, timestamp, targetId, label };
    entries.push(labelEntry as SessionEntry);
    lastKeptId = id;
  }
  return { header, entries };
}
