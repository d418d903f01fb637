/**
 * The strip above the canvas while the map drawn is not the whole tree (a large session's page:
 * the tail of the current path first, then the whole tree once laid out; ui.md "Large
 * sessions"): what is shown, what is still loading and how far along, or why it failed.
 */
import { groupDigits } from "@/lib/text/group-digits";
import type { PartialTree } from "./tree-canvas-body";

export interface TreeLoadingNote {
  text: string;
  /** 0–1, or null when there is no progress to tell (a failure). */
  share: number | null;
  alert: boolean;
}

/**
 * The note for the canvas state: the tail of the path while the skeleton streams (`partial`),
 * or the tail kept while the whole tree's first sliced build runs (`provisional`); null once
 * the whole tree is drawn.
 */
export function treeLoadingNote(partial: PartialTree | undefined, provisional: boolean, building: number | null, entries: number): TreeLoadingNote | null {
  if (partial) {
    const latest = `the latest ${groupDigits(entries)} of ${groupDigits(partial.total)} entries`;
    if (partial.error !== null) return { text: `Could not load the whole tree: ${partial.error}. The map shows ${latest}.`, share: null, alert: true };
    return { text: `Showing ${latest} · loading the whole tree… ${Math.round(partial.share * 100)}%`, share: partial.share, alert: false };
  }
  if (provisional) return { text: `Laying out all ${groupDigits(entries)} entries… ${Math.round((building ?? 0) * 100)}%`, share: building ?? 0, alert: false };
  return null;
}

/**
 * A line between the toolbar and the canvas, not over it: the opening view frames the latest
 * turns at the pane's foot, where an overlay would cover "you are here" (seen on a phone).
 */
export function TreeLoadingStrip({ note }: { note: TreeLoadingNote }) {
  const className = `flex shrink-0 items-center gap-2 border-b border-line bg-panel px-3 py-1 text-xs ${note.alert ? "text-red-700 dark:text-red-300" : "text-muted"}`;
  const body = (
    <>
      <span className="min-w-0">{note.text}</span>
      {note.share != null ? <progress className="w-20 shrink-0" max={100} value={Math.round(note.share * 100)} aria-hidden="true" /> : null}
    </>
  );
  return note.alert ? (
    <div role="alert" aria-label="Tree loading" className={className}>
      {body}
    </div>
  ) : (
    <div role="status" aria-label="Tree loading" className={className}>
      {body}
    </div>
  );
}
