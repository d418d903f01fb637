"use client";
/**
 * The canvas's compaction items (docs/engine.md "Arbor extensions around compaction"): "Compact again with…" and "Compare and choose…" open
 * the compaction review (fact check, the form, the summaries side by side, "Use this one") in a
 * dialog; "Undo compaction" moves the leaf back to the entry before it (a toast offers Redo);
 * "Redo compaction" on a compaction off the current path moves the leaf back under it, to the
 * newest entry of its branch (where the user was when they undid it, unless they wrote there).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { Modal } from "@/components/chat/modal";
import { CompactionReviewPanel, useCompactionUndo, useLeafMove } from "@/components/inspector/compaction-review";
import { compactionReviewOptions } from "@/lib/query/compaction-review";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import type { Toast } from "./status-toast";

export function CompactionDialog({
  sessionId,
  entryId,
  asking,
  onClose,
  onFocusEntry,
  onToast,
}: {
  sessionId: string;
  entryId: string;
  /** Open with the "Compact again with…" form. */
  asking: boolean;
  onClose(): void;
  onFocusEntry(entryId: string): void;
  onToast(toast: Toast): void;
}) {
  return (
    <Modal open title={asking ? "Compact again with…" : "Compare compactions"} onClose={onClose}>
      <div className="max-h-[70vh] overflow-auto">
        <CompactionReviewPanel
          sessionId={sessionId}
          entryId={entryId}
          startAsking={asking}
          onToast={onToast}
          onFocusEntry={(id) => {
            onClose();
            onFocusEntry(id);
          }}
        />
      </div>
      <div className="mt-3 flex justify-end">
        <button type="button" onClick={onClose} className="rounded border border-line px-3 py-1.5">
          Close
        </button>
      </div>
    </Modal>
  );
}

/** The newest entry (by timestamp, then file order) of the subtree under `rootId`. */
export function newestBelow(rows: readonly SkeletonEntry[], rootId: string): string {
  const inside = new Set([rootId]);
  let best = rows.find((r) => r.id === rootId);
  for (const r of rows) {
    if (r.parentId === null || !inside.has(r.parentId)) continue;
    inside.add(r.id);
    if (!best || !(r.t < best.t)) best = r;
  }
  return best?.id ?? rootId;
}

export function useCompactionMenu(input: {
  sessionId: string;
  rows: readonly SkeletonEntry[];
  leafId: string | null;
  onToast(toast: Toast): void;
}) {
  const { sessionId, rows, leafId, onToast } = input;
  const qc = useQueryClient();
  const undo = useCompactionUndo(sessionId, onToast);
  const moveLeaf = useLeafMove(sessionId);

  const undoCompaction = useCallback(
    (entryId: string) => {
      void qc
        .fetchQuery({ ...compactionReviewOptions(sessionId, entryId), staleTime: 0 })
        .then((review) => undo(review.undo))
        .catch((e: Error) => onToast({ text: e.message }));
    },
    [qc, sessionId, undo, onToast],
  );

  const redoCompaction = useCallback(
    (entryId: string) => {
      const target = newestBelow(rows, entryId);
      void moveLeaf(target, leafId).then((failed) =>
        onToast(
          failed
            ? { text: failed }
            : { text: "Compaction restored", action: { label: "Undo", run: () => void moveLeaf(leafId, target) } },
        ),
      );
    },
    [rows, leafId, moveLeaf, onToast],
  );

  return useMemo(() => ({ undoCompaction, redoCompaction }), [undoCompaction, redoCompaction]);
}
