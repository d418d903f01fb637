"use client";
/**
 * Derived, memoised views of a session's entries for the workspace: the id index, the active
 * root → leaf path and the label map. Linear in the number of entries; recomputed only when the
 * entries or the leaf change.
 */
import { useMemo } from "react";
import { pathToRoot } from "@/lib/session/branch-path";
import type { SessionEntry } from "@/lib/session/types";

export interface SessionView {
  byId: Map<string, SessionEntry>;
  path: SessionEntry[];
  labels: Map<string, string>;
}

export function deriveSessionView(entries: readonly SessionEntry[], leafId: string | null): SessionView {
  const byId = new Map<string, SessionEntry>();
  const labels = new Map<string, string>();
  for (const e of entries) {
    byId.set(e.id, e);
    if (e.type === "label") {
      if (e.label) labels.set(e.targetId, e.label);
      else labels.delete(e.targetId);
    }
  }
  const leaf = leafId ? byId.get(leafId) : undefined;
  return { byId, labels, path: leaf ? pathToRoot(leaf, byId) : [] };
}

export function useSessionView(entries: readonly SessionEntry[], leafId: string | null): SessionView {
  return useMemo(() => deriveSessionView(entries, leafId), [entries, leafId]);
}
