"use client";
/**
 * A small "Copy" button (ui.md "Chat": copy a message, a code block, a tool's output, the
 * conversation as Markdown, the resume command). It says "Copied" for a moment, and says in words
 * when the browser refused (no clipboard outside a secure context).
 */
import { useEffect, useState } from "react";

export function CopyButton({
  text,
  label,
  shown = "Copy",
  className = "",
}: {
  text: string | (() => string | Promise<string>);
  /** The button's accessible name ("Copy message"). */
  label: string;
  /** Its visible word when idle. */
  shown?: string;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      const value = typeof text === "function" ? await text() : text;
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={(e) => {
        e.stopPropagation();
        void copy();
      }}
      className={`rounded border border-line bg-[var(--bg)] px-1.5 py-0.5 text-[11px] text-muted hover:text-[var(--fg)] ${className}`}
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : shown}</span>
    </button>
  );
}
