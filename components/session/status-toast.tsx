"use client";
/** A transient status line (role "status") with an optional action such as "Undo". */
import { useEffect } from "react";

export interface Toast {
  text: string;
  action?: { label: string; run: () => void };
}

export function StatusToast({ toast, onDone, ms = 8000 }: { toast: Toast | null; onDone: () => void; ms?: number }) {
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(onDone, ms);
    return () => clearTimeout(t);
  }, [toast, onDone, ms]);
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed bottom-4 left-1/2 z-50 -translate-x-1/2">
      {toast && (
        <div className="pointer-events-auto flex items-center gap-3 rounded border border-line bg-[var(--bg)] px-4 py-2 shadow-lg">
          <span>{toast.text}</span>
          {toast.action && (
            <button
              type="button"
              onClick={() => {
                toast.action?.run();
                onDone();
              }}
              className="font-medium text-[var(--color-accent)] underline"
            >
              {toast.action.label}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
