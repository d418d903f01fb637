/**
 * What a compaction's summary left out: the fact check (lib/compaction/fact-check.ts) of the
 * compaction against the span it summarised, keeping the facts it did not carry. Shared by the
 * `compaction_dropped` tool and the recall prompt.
 */
import type { SessionMeta } from "@/lib/db";
import { loadPath } from "@/lib/db";
import { type FactKind, factCheckCompaction } from "@/lib/compaction/fact-check";
import type { CompactionEntry } from "@/lib/session/types";
import { ToolInputError } from "./bounded";
import { branchTo } from "./sessions";

/** The kinds an agent needs back by default (paths, errors, identifiers, instructions, TODOs). */
export const DEFAULT_DROPPED_KINDS: readonly FactKind[] = ["file", "error", "identifier", "instruction", "todo"];

export interface DroppedFact {
  kind: FactKind;
  text: string;
  detail?: string;
  /** The entry of the summarised span the fact came from. */
  entry: string;
}

export interface Dropped {
  compaction: string;
  timestamp: string;
  summary: string;
  spanEntries: number;
  score: { carried: number; total: number };
  dropped: DroppedFact[];
}

/** The compaction `id` names, or the last one on the session's current branch. */
export async function droppedBy(meta: SessionMeta, id: string | undefined, kinds: readonly FactKind[] = DEFAULT_DROPPED_KINDS): Promise<Dropped> {
  let compactionId = id;
  if (compactionId === undefined) {
    const { path } = await branchTo(meta, undefined);
    compactionId = path.findLast((e) => e.type === "compaction")?.id;
    if (compactionId === undefined) throw new ToolInputError(`session "${meta.id}" has no compaction on its current branch`);
  }
  const path = await loadPath({ sessionId: meta.id, leafId: compactionId });
  const entry = path.at(-1);
  if (!entry) throw new ToolInputError(`session "${meta.id}" has no entry "${compactionId}"`);
  if (entry.type !== "compaction") throw new ToolInputError(`entry "${compactionId}" is a ${entry.type} entry, not a compaction`);
  const check = factCheckCompaction(path, compactionId, { cwd: meta.cwd })!;
  const wanted = new Set(kinds);
  const dropped = check.facts
    .filter((f) => !f.carried && wanted.has(f.kind))
    .map((f): DroppedFact => ({ kind: f.kind, text: f.text, ...(f.detail ? { detail: f.detail } : {}), entry: f.entryId }));
  return {
    compaction: compactionId,
    timestamp: entry.timestamp,
    summary: (entry as CompactionEntry).summary,
    spanEntries: check.spanEntries,
    score: { carried: check.carried, total: check.total },
    dropped,
  };
}
