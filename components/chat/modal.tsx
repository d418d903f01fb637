"use client";
/**
 * A modal dialog on the native <dialog> element (focus trap, Esc to close, labelled by its title).
 * It is portalled to <body> and the document does not scroll while it is open: showModal() focuses
 * inside the dialog, and as a descendant of the workspace's panes that focus scrolled those
 * overflow-hidden panes and the page, taking the header out of view (docs/ui.md "The session workspace").
 */
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";

export function Modal({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dialog exists only once mounted
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open, mounted]);
  useEffect(() => {
    if (!open) return;
    const root = document.documentElement;
    const previous = root.style.overflow;
    root.style.overflow = "hidden";
    return () => {
      root.style.overflow = previous;
    };
  }, [open]);
  if (!mounted) return null;
  return createPortal(
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-auto max-h-[90dvh] w-[min(40rem,92vw)] overflow-auto overscroll-contain rounded-lg border border-line bg-[var(--bg)] p-0 text-[var(--fg)] shadow-xl backdrop:bg-black/40"
    >
      {open && (
        <div className="p-5">
          <h2 id={titleId} className="mb-3 text-lg font-semibold">
            {title}
          </h2>
          {children}
        </div>
      )}
    </dialog>,
    document.body,
  );
}
