"use client";
/**
 * A two-pane split with a draggable, keyboard-operable separator (role "separator", arrows move
 * it by 2%). The size (percent of the first pane) is remembered per browser in localStorage.
 * `collapsedSecond` gives the first pane all the room the second's own height does not take
 * (the second keeps its natural size, e.g. a header). The root carries `ws-split` and each pane
 * wrapper `ws-split-pane` (plus `firstProps` / `secondProps`), which workspace-layout.css uses
 * to turn the panes into tabs on narrow screens.
 */
import { type HTMLAttributes, type ReactNode, useCallback, useEffect, useRef, useState } from "react";

export function useStoredNumber(key: string, fallback: number): [number, (n: number) => void] {
  const [value, setValue] = useState(fallback);
  useEffect(() => {
    const raw = window.localStorage.getItem(key);
    const n = raw === null ? Number.NaN : Number(raw);
    if (Number.isFinite(n)) setValue(n);
  }, [key]);
  const set = useCallback(
    (n: number) => {
      setValue(n);
      window.localStorage.setItem(key, String(n));
    },
    [key],
  );
  return [value, set];
}

/** Extra attributes of a pane wrapper (id, role, data-*). */
export type PaneProps = HTMLAttributes<HTMLDivElement> & Record<`data-${string}`, string>;

export function Split({
  direction,
  storageKey,
  defaultPercent,
  min = 15,
  max = 85,
  first,
  second,
  label,
  collapsedSecond = false,
  firstProps,
  secondProps,
}: {
  direction: "horizontal" | "vertical";
  storageKey: string;
  defaultPercent: number;
  min?: number;
  max?: number;
  first: ReactNode;
  second: ReactNode;
  label: string;
  collapsedSecond?: boolean;
  firstProps?: PaneProps;
  secondProps?: PaneProps;
}) {
  const [percent, setPercent] = useStoredNumber(storageKey, defaultPercent);
  const box = useRef<HTMLDivElement>(null);
  const horizontal = direction === "horizontal";
  const clamp = (n: number) => Math.min(max, Math.max(min, n));

  const onPointerDown = (e: React.PointerEvent) => {
    e.preventDefault();
    const el = box.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    const move = (ev: PointerEvent) => {
      const p = horizontal ? ((ev.clientX - rect.left) / rect.width) * 100 : ((ev.clientY - rect.top) / rect.height) * 100;
      setPercent(Math.round(clamp(p) * 10) / 10);
    };
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const dec = horizontal ? "ArrowLeft" : "ArrowUp";
    const inc = horizontal ? "ArrowRight" : "ArrowDown";
    if (e.key === dec) setPercent(clamp(percent - 2));
    else if (e.key === inc) setPercent(clamp(percent + 2));
    else return;
    e.preventDefault();
  };

  return (
    <div ref={box} className={`ws-split flex h-full min-h-0 w-full min-w-0 ${horizontal ? "flex-row" : "flex-col"}`}>
      <div
        {...firstProps}
        className="ws-split-pane min-h-0 min-w-0 overflow-hidden"
        style={collapsedSecond ? { flex: "1 1 0%" } : { flexBasis: `${percent}%`, flexGrow: 0, flexShrink: 0 }}
      >
        {first}
      </div>
      {!collapsedSecond && (
        // biome-ignore lint/a11y/useSemanticElements: an interactive separator has no native element
        <div
          role="separator"
          aria-label={label}
          aria-orientation={horizontal ? "vertical" : "horizontal"}
          aria-valuenow={Math.round(percent)}
          aria-valuemin={min}
          aria-valuemax={max}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onKeyDown={onKeyDown}
          className={`shrink-0 bg-[var(--border)] hover:bg-[var(--color-accent)] focus-visible:bg-[var(--color-accent)] ${horizontal ? "w-1 cursor-col-resize" : "h-1 cursor-row-resize"}`}
        />
      )}
      <div {...secondProps} className={`ws-split-pane min-h-0 min-w-0 overflow-hidden ${collapsedSecond ? "shrink-0" : "flex-1"}`}>
        {second}
      </div>
    </div>
  );
}
