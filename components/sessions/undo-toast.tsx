"use client";
/**
 * The list's toast: a polite live region (role status) that is always in the page, so screen
 * readers announce what appears in it. A message with an action ("Undo") stays DURATION_MS,
 * longer while the pointer or focus is on it.
 */
import { useEffect, useRef, useState } from "react";

export const TOAST_MS = 8000;

export interface ToastMessage {
  id: number;
  text: string;
  tone?: "info" | "error";
  action?: { label: string; run: () => void };
}

export function UndoToast({ toast, onClose }: { toast: ToastMessage | null; onClose: () => void }) {
  const [paused, setPaused] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!toast || paused) return;
    const timer = setTimeout(onClose, TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast, paused, onClose]);

  return (
    <div
      ref={box}
      role="status"
      className="pointer-events-none fixed inset-x-0 bottom-6 z-30 flex justify-center px-4"
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(e) => {
        if (!box.current?.contains(e.relatedTarget as Node | null)) setPaused(false);
      }}
    >
      {toast && (
        <div
          key={toast.id}
          className={`pointer-events-auto flex items-center gap-4 rounded-lg border px-4 py-2 shadow-lg ${
            toast.tone === "error"
              ? "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
              : "border-line bg-[var(--panel)]"
          }`}
        >
          <span>{toast.text}</span>
          {toast.action && (
            <button
              type="button"
              onClick={toast.action.run}
              className="rounded px-2 py-0.5 font-medium text-[var(--color-accent)] underline hover:no-underline focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]"
            >
              {toast.action.label}
            </button>
          )}
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            className="rounded px-1 text-muted hover:bg-[var(--bg)] focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      )}
    </div>
  );
}
