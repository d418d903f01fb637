"use client";
/**
 * A two-pane split with a draggable, keyboard-operable separator (role "separator", arrows move
 * it by 2%). The size (percent of the first pane) is remembered per browser in localStorage.
 */
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";

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

  const size = collapsedSecond ? 100 : percent;
  return (
    <div ref={box} className={`flex h-full min-h-0 w-full min-w-0 ${horizontal ? "flex-row" : "flex-col"}`}>
      <div className="min-h-0 min-w-0 overflow-hidden" style={{ flexBasis: `${size}%`, flexGrow: 0, flexShrink: 0 }}>
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
      <div className={`min-h-0 min-w-0 flex-1 overflow-hidden ${collapsedSecond ? "" : ""}`}>{second}</div>
    </div>
  );
}
