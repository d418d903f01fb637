"use client";
/**
 * Keyboard shortcuts of the session tree region (ui.md "Keyboard"; session-engine.md §16.6), attached to
 * the `<section aria-label="Session tree">` so they work whether a node, the canvas or the
 * list has focus:
 * - arrows (canvas): parent / first child / previous / next sibling; the list handles its
 *   own arrows (rows, wrapping) and pages;
 * - Enter: "Continue from here" (onActivate: the dialog), show a turn's entries, or unfold a fold;
 * - `C`: "Continue from here" (on a turn: after its last entry);
 * - `L`: label the selected entry (onContextAction("label"));
 * - `/`: focus the search box;
 * - `F` / Shift+`F`: next / previous filter;
 * - Esc: clear the search first, then the selection.
 * Keys typed into inputs, menus, and chords with Ctrl/Alt/Meta are left alone; Enter and
 * Space on a button keep their native meaning.
 */
import { type KeyboardEvent, useCallback, useRef } from "react";
import { arrowMove, moveInTree } from "@/components/tree/tree-nav";
import type { TreeView } from "@/components/tree/tree-toolbar";
import type { ContextAction } from "@/components/tree/types";
import { entryIdOf, isFoldId, isGroupId } from "@/components/tree/types";
import type { TreeModel } from "@/components/tree/hooks/use-tree-model";
import { nextFilter, type TreeFilter } from "@/lib/session/tree/tree-filter";

export interface TreeKeyboardOptions {
  view: TreeView;
  model: TreeModel;
  selectedId: string | null;
  filter: TreeFilter;
  search: string;
  onSelect: (id: string | null) => void;
  onActivate: (id: string) => void;
  onContextAction: (action: ContextAction, id: string) => void;
  onFilterChange: (filter: TreeFilter) => void;
  onSearchChange: (search: string) => void;
  unfold: (entryIds: readonly string[]) => void;
  /** Show an overview turn as its entries (Enter on a turn). */
  expandTurn: (turnId: string) => void;
  focusSearch: () => void;
  /** Bring a node into view and give it focus (canvas). */
  reveal: (id: string) => void;
}

export function useTreeKeyboard(options: TreeKeyboardOptions): (e: KeyboardEvent<HTMLElement>) => void {
  const latest = useRef(options);
  latest.current = options;

  return useCallback((e: KeyboardEvent<HTMLElement>) => {
    const o = latest.current;
    if (e.defaultPrevented) return;
    const target = e.target as HTMLElement;
    if (target.closest('[role="menu"]')) return;
    const typing = target.matches('input, textarea, select, [contenteditable="true"]');

    if (e.key === "Escape") {
      if (o.search !== "") {
        e.preventDefault();
        o.onSearchChange("");
      } else if ((!typing || target.getAttribute("type") === "search") && o.selectedId !== null) {
        e.preventDefault();
        o.onSelect(null);
      }
      return;
    }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;

    const selected = o.selectedId;
    const key = e.key;
    if (key === "/") {
      e.preventDefault();
      o.focusSearch();
    } else if (key === "f" || key === "F") {
      e.preventDefault();
      o.onFilterChange(nextFilter(o.filter, e.shiftKey ? -1 : 1));
    } else if (key === "c" || key === "C") {
      if (selected === null || isFoldId(selected)) return;
      e.preventDefault();
      o.onActivate(selected);
    } else if (key === "l" || key === "L") {
      if (selected === null || isFoldId(selected) || isGroupId(selected)) return;
      e.preventDefault();
      o.onContextAction("label", selected);
    } else if (key === "Enter") {
      if (target.closest("button") || selected === null) return;
      e.preventDefault();
      if (isGroupId(selected)) {
        o.expandTurn(selected);
      } else if (isFoldId(selected)) {
        const fold = o.model.layout.nodes[o.model.layout.index.get(selected) ?? -1];
        o.unfold(fold?.type === "fold" ? fold.data.entryIds : [entryIdOf(selected)]);
      } else {
        o.onActivate(selected);
      }
    } else if (o.view === "canvas") {
      const move = arrowMove(key);
      if (!move) return;
      e.preventDefault();
      // An entry inside a collapsed turn moves from its turn.
      const from = selected === null || o.model.layout.index.has(selected) ? selected : (o.model.flow.nodeOf.get(selected) ?? selected);
      const next = moveInTree(o.model.layout, from, move);
      if (next === null) return;
      if (next !== selected) o.onSelect(next);
      o.reveal(next);
    }
  }, []);
}
