"use client";
/**
 * Keeps keyboard focus inside the tree region when a re-render removes the focused element
 * (a filter, search or unfold can drop the focused node from the canvas). Without this the
 * focus falls to <body> and the region's shortcuts stop working mid-sequence.
 *
 * Focus is "inside" from a focus event in the region until focus or a pointer press lands
 * outside it. After each `deps` change, if focus was inside and is now on <body>, it goes
 * back to the selected node, else the list, else the region itself (tabIndex -1).
 * Runs after a change of `graph`, `view` or `selectedId`.
 */
import { type RefObject, useEffect, useRef } from "react";

export function useKeepFocus(
  regionRef: RefObject<HTMLElement | null>,
  selectedId: string | null,
  /** Anything whose change may have re-rendered the focused element away (the layout). */
  graph: unknown,
  view: string,
) {
  const inside = useRef(false);

  useEffect(() => {
    const region = regionRef.current;
    if (!region) return;
    const onFocusIn = () => {
      inside.current = true;
    };
    const onOutside = (e: Event) => {
      if (!region.contains(e.target as Node)) inside.current = false;
    };
    region.addEventListener("focusin", onFocusIn);
    document.addEventListener("focusin", onOutside);
    document.addEventListener("pointerdown", onOutside, true);
    return () => {
      region.removeEventListener("focusin", onFocusIn);
      document.removeEventListener("focusin", onOutside);
      document.removeEventListener("pointerdown", onOutside, true);
    };
  }, [regionRef]);

  const selected = useRef(selectedId);
  selected.current = selectedId;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `graph`, `view` and `selectedId` only trigger the check
  useEffect(() => {
    if (!inside.current) return;
    const frame = requestAnimationFrame(() => {
      const region = regionRef.current;
      const active = document.activeElement;
      if (!region || (active && active !== document.body)) return;
      const id = selected.current;
      const node = id ? region.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`) : null;
      const target = node ?? region.querySelector<HTMLElement>('[role="listbox"]') ?? region;
      target.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [graph, view, selectedId, regionRef]);
}
