"use client";
/**
 * List view of the session tree: the same tree as indented rows, as pi's `/tree` shows it
 * (session-engine.md §16.1–16.3): engine indentation (`flattenTree` depth), active path marked, the
 * current leaf named, the selected row bold, labels as a `[label] ` prefix, and
 * `No entries found` / `No entries in session` when there is nothing to show.
 *
 * Virtualised with a fixed row height: only the rows in view (plus a small overscan) are in
 * the DOM, so 10k rows scroll smoothly. It is an ARIA listbox that keeps DOM focus and points
 * at the selected row with aria-activedescendant.
 *
 * Keys handled here: ↑/↓ (wrapping), ←/→ and PageUp/PageDown (a page), Home/End. Everything
 * else (Enter, L, F, /, Esc) bubbles to the canvas's handler. Click selects; double-click
 * goes there (onActivate).
 */
import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { moveInRows } from "@/components/tree/tree-nav";
import { emptyText } from "@/lib/session/tree/tree-filter";
import type { SkeletonRow } from "@/lib/session-view/tree-skeleton-view";
import { displayText } from "@/lib/session/tree/tree-row-text";

export const LIST_ROW_HEIGHT = 28;
const OVERSCAN = 8;
const INDENT_PX = 14;

export interface TreeListProps {
  /** Visible rows in display order. */
  rows: readonly SkeletonRow[];
  /** Entries in the session, to tell "No entries found" from "No entries in session". */
  totalEntries: number;
  /** Selected entry id. */
  selectedId: string | null;
  onSelect: (id: string) => void;
  onActivate: (id: string) => void;
  /** The row that shows "you are here": the leaf, or its nearest visible ancestor (to-flow.ts `hereId`). */
  hereId: string | null;
}

export function TreeList({ rows, totalEntries, selectedId, onSelect, onActivate, hereId }: TreeListProps) {
  const baseId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);

  const empty = rows.length === 0;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || empty) return;
    setHeight(el.clientHeight);
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [empty]);

  const selectedIndex = selectedId == null ? -1 : rows.findIndex((r) => r.entry.id === selectedId);

  // Keep the selected row in view.
  useEffect(() => {
    const el = scroller.current;
    if (!el || selectedIndex < 0) return;
    const top = selectedIndex * LIST_ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + LIST_ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + LIST_ROW_HEIGHT - el.clientHeight;
  }, [selectedIndex]);

  if (empty) {
    return <p className="p-4 text-muted">{emptyText(totalEntries)}</p>;
  }

  const page = Math.max(1, Math.floor(height / LIST_ROW_HEIGHT) - 1);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const steps: Record<string, [number, boolean]> = {
      ArrowUp: [-1, true],
      ArrowDown: [1, true],
      ArrowLeft: [-page, false],
      PageUp: [-page, false],
      ArrowRight: [page, false],
      PageDown: [page, false],
      Home: [-rows.length, false],
      End: [rows.length, false],
    };
    const step = steps[e.key];
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    const next = moveInRows(rows, selectedId, step[0], step[1]);
    if (next) onSelect(next);
  };

  const first = Math.max(0, Math.floor(scrollTop / LIST_ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / LIST_ROW_HEIGHT) + OVERSCAN);
  const rowId = (i: number) => `${baseId}-row-${i}`;
  const activeDescendant = selectedIndex >= first && selectedIndex < last ? rowId(selectedIndex) : undefined;

  const shown = [];
  for (let i = first; i < last; i++) {
    const row = rows[i]!;
    const selected = i === selectedIndex;
    const id = row.entry.id;
    const here = id === hereId;
    shown.push(
      // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the listbox (aria-activedescendant)
      <div
        key={id}
        id={rowId(i)}
        role="option"
        tabIndex={-1}
        aria-selected={selected}
        aria-setsize={rows.length}
        aria-posinset={i + 1}
        className={`absolute right-0 left-0 flex cursor-pointer items-center gap-2 truncate border-l-4 pr-2 text-sm ${
          row.isActive ? "border-[var(--color-accent)]" : "border-transparent text-muted"
        } ${selected ? "bg-[var(--panel)] font-bold" : ""}`}
        style={{ top: i * LIST_ROW_HEIGHT, height: LIST_ROW_HEIGHT, paddingLeft: 6 + row.depth * INDENT_PX }}
        onClick={() => {
          onSelect(id);
          scroller.current?.focus({ preventScroll: true });
        }}
        onDoubleClick={() => onActivate(id)}
      >
        <span className="truncate">{displayText(row.text, row.label)}</span>
        {row.isActive && !here ? <span className="sr-only">, on the current path</span> : null}
        {here ? (
          <span className="shrink-0 rounded border border-[var(--color-accent)] px-1 text-xs text-[var(--color-accent)]">
            you are here
          </span>
        ) : null}
      </div>,
    );
  }

  return (
    <div
      ref={scroller}
      role="listbox"
      aria-label="Session entries"
      tabIndex={0}
      aria-activedescendant={activeDescendant}
      className="relative h-full min-h-0 overflow-auto focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]"
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: rows.length * LIST_ROW_HEIGHT, position: "relative" }}>{shown}</div>
    </div>
  );
}
