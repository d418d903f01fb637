"use client";
/**
 * A long list of the inspector in a box of its own height (ui.md "Inspector": the long lists —
 * messages sent, facts, diff items — never push what follows them out of reach). Up to
 * PLAIN_MAX items it is a plain list; beyond, only the rows in view are in the page
 * (@tanstack/react-virtual, rows measured as drawn), so a list of thousands costs what a screenful
 * does. Rows are `<li>`s of one `<ul>`/`<ol>` with the given accessible name.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useRef } from "react";

/** Lists this short are drawn whole. */
export const PLAIN_MAX = 40;
/** The box height assumed before it is measured, in px. */
const INITIAL_HEIGHT_PX = 320;

export function VirtualList<T>({
  items,
  itemKey,
  render,
  label,
  ordered = false,
  estimate = 28,
  maxHeight = "20rem",
  className = "",
  itemClassName = "",
}: {
  items: readonly T[];
  itemKey(item: T, index: number): string;
  /** The row's content (its `<li>` is the list's). */
  render(item: T, index: number): ReactNode;
  label: string;
  ordered?: boolean;
  /** A row's height before it is measured, in px. */
  estimate?: number;
  maxHeight?: string;
  className?: string;
  itemClassName?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const long = items.length > PLAIN_MAX;
  const virtualizer = useVirtualizer({
    count: long ? items.length : 0,
    getScrollElement: () => box.current,
    estimateSize: () => estimate,
    overscan: 10,
    getItemKey: (i) => itemKey(items[i] as T, i),
    // Before the box is measured (the server's render, hydration): the rows of a box this tall.
    initialRect: { width: 600, height: INITIAL_HEIGHT_PX },
  });
  const List = ordered ? "ol" : "ul";
  if (!long) {
    return (
      <div className="overflow-auto" style={{ maxHeight }}>
        <List aria-label={label} className={className}>
          {items.map((item, i) => (
            <li key={itemKey(item, i)} className={itemClassName}>
              {render(item, i)}
            </li>
          ))}
        </List>
      </div>
    );
  }
  return (
    <div ref={box} className="overflow-auto" style={{ maxHeight }}>
      <List aria-label={label} className={`relative ${className}`} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => (
          <li
            key={v.key}
            data-index={v.index}
            ref={virtualizer.measureElement}
            className={`absolute top-0 left-0 w-full ${itemClassName}`}
            style={{ transform: `translateY(${v.start}px)` }}
          >
            {render(items[v.index] as T, v.index)}
          </li>
        ))}
      </List>
    </div>
  );
}
