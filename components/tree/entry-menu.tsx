"use client";
/**
 * The entry menu of the canvas (ui.md "Inspect without moving"): opened by a node's "⋯"
 * button or by right-clicking a node. Items: "Inspect", "Continue from here…" (the only way the
 * canvas moves the leaf, after a dialog), "Label…", "Pin" / "Unpin" (messages,
 * custom messages and branch summaries, session-engine.md §19), "Edit and resend" (user messages only), "Fork
 * to new session", "Copy link"; on compactions also "Compact again with…", "Compare and
 * choose…" and "Undo compaction" (on the current path) or "Redo compaction" (docs/engine.md "Arbor extensions around compaction"); off the
 * current path "Archive branch", inside a shown archived branch "Restore branch" (§19.4).
 *
 * On a collapsed overview turn: "Inspect", "Continue after this turn…" (from its last entry),
 * "Show entries", "Edit and resend" (its prompt), "Fork to new session", "Copy link".
 *
 * ARIA menu pattern: focus moves to the first item; ↑/↓ (wrapping), Home and End move;
 * Enter/Space or a click runs an item; Esc, Tab or a click outside closes it, and focus
 * returns to whatever opened it.
 */
import { type KeyboardEvent, useEffect, useRef } from "react";
import { createPortal } from "react-dom";
import type { MenuRequest } from "@/components/tree/tree-context";
import type { ContextAction } from "@/components/tree/types";

const ITEMS: { action: ContextAction; label: string | ((r: MenuRequest) => string); when?: (r: MenuRequest) => boolean }[] = [
  { action: "inspect", label: "Inspect" },
  { action: "continue", label: (r) => (r.span ? "Continue after these turns…" : r.turn ? "Continue after this turn…" : "Continue from here…") },
  { action: "expand-turn", label: (r) => (r.span ? "Show turns" : "Show entries"), when: (r) => r.turn === true },
  { action: "label", label: "Label…", when: (r) => r.turn !== true },
  { action: "pin", label: "Pin", when: (r) => r.pin === "pin" },
  { action: "unpin", label: "Unpin", when: (r) => r.pin === "unpin" },
  { action: "edit-resend", label: "Edit and resend", when: (r) => r.canEditResend },
  { action: "compact-again", label: "Compact again with…", when: (r) => r.compaction !== undefined },
  { action: "compare-compactions", label: "Compare and choose…", when: (r) => r.compaction !== undefined },
  { action: "undo-compaction", label: "Undo compaction", when: (r) => r.compaction?.active === true },
  { action: "redo-compaction", label: "Redo compaction", when: (r) => r.compaction?.active === false },
  { action: "archive-branch", label: "Archive branch", when: (r) => r.archive === "archive" },
  { action: "restore-branch", label: "Restore branch", when: (r) => r.archive === "restore" },
  { action: "fork", label: "Fork to new session" },
  { action: "copy-link", label: "Copy link" },
];

export interface EntryMenuProps {
  request: MenuRequest;
  onAction: (action: ContextAction, id: string) => void;
  onClose: () => void;
}

export function EntryMenu({ request, onAction, onClose }: EntryMenuProps) {
  const ref = useRef<HTMLDivElement>(null);
  const items = ITEMS.filter((i) => i.when?.(request) ?? true);

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose();
    };
    document.addEventListener("pointerdown", onPointerDown, true);
    return () => document.removeEventListener("pointerdown", onPointerDown, true);
  }, [onClose]);

  const close = (restore: boolean) => {
    onClose();
    if (restore) request.returnFocus?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = list.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => list[(i + list.length) % list.length]?.focus();
    e.stopPropagation(); // the canvas's own shortcuts must not fire inside the menu
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        focus(at + 1);
        break;
      case "ArrowUp":
        e.preventDefault();
        focus(at - 1);
        break;
      case "Home":
        e.preventDefault();
        focus(0);
        break;
      case "End":
        e.preventDefault();
        focus(list.length - 1);
        break;
      case "Escape":
        e.preventDefault();
        close(true);
        break;
      case "Tab":
        close(false);
        break;
    }
  };

  // Keep the menu inside the window.
  const left = typeof window === "undefined" ? request.x : Math.min(request.x, window.innerWidth - 200);
  const top = typeof window === "undefined" ? request.y : Math.min(request.y, window.innerHeight - 200);

  // A portal, so no transformed ancestor can offset the fixed position.
  return createPortal(
    <div
      ref={ref}
      role="menu"
      aria-label="Entry actions"
      className="tree-menu"
      style={{ left: Math.max(4, left), top: Math.max(4, top) }}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => (
        <button
          key={item.action}
          type="button"
          role="menuitem"
          tabIndex={-1}
          onClick={() => {
            close(true);
            onAction(item.action, request.id);
          }}
        >
          {typeof item.label === "string" ? item.label : item.label(request)}
        </button>
      ))}
    </div>,
    document.body,
  );
}
