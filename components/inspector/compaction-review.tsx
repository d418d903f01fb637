"use client";
/**
 * Beside a selected compaction in the inspector (docs/engine.md "Arbor extensions around compaction"): its summary with the fact check
 * ("38 of 45 facts carried", facts grouped by kind, each linking to its source entry), "Undo
 * compaction" (the leaf moves back to the entry before it; the compaction stays as a branch and a
 * toast offers Redo), and, when the span was summarised more than once, the summaries side by
 * side (compaction-compare.tsx).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useState } from "react";
import { undoNavigation } from "@/app/sessions/[id]/actions";
import type { Toast } from "@/components/session/status-toast";
import type { CompactionUndo } from "@/lib/compaction/compaction-undo";
import { compactionReviewOptions } from "@/lib/query/compaction-review";
import { invalidateSession, keys } from "@/lib/query/keys";
import type { SessionData } from "@/lib/query/session";
import { withLeaf } from "@/lib/query/session-cache";
import { CardFacts, FactHeadline, SummaryText } from "./compaction-card";
import { CompactAgain, CompactionAlternatives } from "./compaction-compare";

/** Moves the leaf (conditionally on where it is now) and updates the cached session. */
export function useLeafMove(sessionId: string) {
  const qc = useQueryClient();
  return useCallback(
    async (leafId: string | null, expectedLeafId: string | null): Promise<string | undefined> => {
      const r = await undoNavigation({ sessionId, leafId, expectedLeafId });
      if (!r.ok) return r.message ?? "Could not move the leaf.";
      qc.setQueryData<SessionData>(keys.session(sessionId), (old) => withLeaf(old, leafId));
      await invalidateSession(qc, sessionId);
      return undefined;
    },
    [qc, sessionId],
  );
}

/**
 * Undo of a compaction (a leaf move back to its parent) with a toast offering Redo (back to the
 * leaf the user was at). Shared by the panel's button and the canvas's "Undo compaction".
 */
export function useCompactionUndo(sessionId: string, onToast: (toast: Toast) => void) {
  const moveLeaf = useLeafMove(sessionId);
  return useCallback(
    async (undo: CompactionUndo) => {
      if (!undo.ok) return onToast({ text: undo.reason });
      const failed = await moveLeaf(undo.undoLeafId, undo.redoLeafId);
      if (failed) return onToast({ text: failed });
      onToast({
        text: "Compaction undone: the next message sees the full history",
        action: {
          label: "Redo",
          run: () => {
            void moveLeaf(undo.redoLeafId, undo.undoLeafId).then((f) => onToast({ text: f ?? "Compaction restored" }));
          },
        },
      });
    },
    [moveLeaf, onToast],
  );
}

export function CompactionReviewPanel({
  sessionId,
  entryId,
  onFocusEntry,
  onToast,
  startAsking = false,
  children,
}: {
  sessionId: string;
  entryId: string;
  onFocusEntry(entryId: string): void;
  /** Shown by the inspector, so it outlives this panel (an undo moves the selection away). */
  onToast(toast: Toast): void;
  /** Open with the "Compact again with…" form showing (the canvas menu item). */
  startAsking?: boolean;
  /** What follows in the pane (the turn view), under the same sticky bar. */
  children?: ReactNode;
}) {
  const { data, error, isPending } = useQuery(compactionReviewOptions(sessionId, entryId));
  const [busy, setBusy] = useState(false);
  const moveLeaf = useLeafMove(sessionId);
  const undoCompaction = useCompactionUndo(sessionId, onToast);

  if (isPending) return <p className="text-sm text-muted">Checking the summary…</p>;
  if (error) return <p role="alert" className="text-sm text-red-700 dark:text-red-300">Could not check this compaction: {error.message}</p>;
  const { compaction: card, undo } = data;

  const runUndo = async () => {
    setBusy(true);
    await undoCompaction(undo);
    setBusy(false);
  };

  // The bar sticks within the section, which holds the turn view below too (`children`): it stays in
  // view while the summary, the facts and the turn scroll (ui.md "Inspector").
  return (
    <section aria-label="Compaction fact check" className="space-y-2 rounded border border-line p-2">
      <div className="sticky top-0 z-10 -mx-2 -mt-2 space-y-1 border-b border-line bg-[var(--bg)] px-2 py-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="text-sm font-semibold">Compaction {card.id}</h3>
          {card.focus ? <span className="text-xs text-muted">focus: {card.focus}</span> : null}
          {card.model ? <span className="text-xs text-muted">model: {card.model}</span> : null}
          <span className="flex-1" />
          {undo.ok ? (
            <button type="button" disabled={busy} onClick={() => void runUndo()} className="rounded border border-line px-2 py-0.5 text-xs">
              Undo compaction
            </button>
          ) : null}
        </div>
        <FactHeadline card={card} />
        <CompactAgain sessionId={sessionId} review={data} onStatus={(text) => onToast({ text })} startAsking={startAsking} />
      </div>
      <details open>
        <summary className="cursor-pointer text-xs font-medium">Summary</summary>
        <SummaryText card={card} onFocusEntry={onFocusEntry} />
      </details>
      <CompactionAlternatives review={data} onFocusEntry={onFocusEntry} onMove={moveLeaf} onStatus={(text) => onToast({ text })} />
      <details open={card.check.total <= 60}>
        <summary className="cursor-pointer text-xs font-medium">Facts of the summarised entries ({card.check.total})</summary>
        <CardFacts card={card} onFocusEntry={onFocusEntry} headline={false} />
      </details>
      {children}
    </section>
  );
}
