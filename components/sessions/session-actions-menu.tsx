"use client";
/**
 * The "Session actions" menu button of a list row (WAI-ARIA menu button pattern): Rename,
 * Export (a download of the JSONL file), Delete. Arrow keys, Home and End move between items;
 * Escape closes and returns focus to the button; a click elsewhere closes.
 */
import { type KeyboardEvent, type Ref, useEffect, useId, useRef, useState } from "react";

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
}

const item =
  "block w-full px-3 py-1.5 text-left text-sm hover:bg-[var(--panel)] focus:bg-[var(--panel)] focus:outline-none";

export function SessionActionsMenu(props: { sessionId: string; onRename: () => void; onDelete: () => void; buttonRef?: Ref<HTMLButtonElement> }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement | null>(null);
  const menu = useRef<HTMLDivElement>(null);
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    menuItems(menu.current)[0]?.focus();
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  const onMenuKey = (e: KeyboardEvent) => {
    const all = menuItems(menu.current);
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (i: number) => {
      e.preventDefault();
      all[(i + all.length) % all.length]?.focus();
    };
    if (e.key === "ArrowDown") move(at + 1);
    else if (e.key === "ArrowUp") move(at - 1);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(all.length - 1);
    else if (e.key === "Escape") {
      e.preventDefault();
      close(true);
    } else if (e.key === "Tab") setOpen(false);
  };

  const choose = (action: () => void) => () => {
    setOpen(false);
    action();
  };

  const setButton = (el: HTMLButtonElement | null) => {
    button.current = el;
    const ref = props.buttonRef;
    if (typeof ref === "function") ref(el);
    else if (ref) ref.current = el;
  };

  return (
    <div ref={root} className="relative">
      <button
        ref={setButton}
        type="button"
        aria-label="Session actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className="rounded px-2 py-1 text-lg leading-none text-muted hover:bg-[var(--panel)] focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]"
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="Session actions"
          onKeyDown={onMenuKey}
          className="absolute right-0 z-20 mt-1 w-36 overflow-hidden rounded border border-line bg-[var(--bg)] py-1 shadow-lg"
        >
          <button type="button" role="menuitem" tabIndex={-1} className={item} onClick={choose(props.onRename)}>
            Rename
          </button>
          <a
            role="menuitem"
            tabIndex={-1}
            className={item}
            href={`/api/sessions/${encodeURIComponent(props.sessionId)}?format=jsonl`}
            download
            onClick={() => setOpen(false)}
          >
            Export
          </a>
          <button type="button" role="menuitem" tabIndex={-1} className={`${item} text-red-700 dark:text-red-300`} onClick={choose(props.onDelete)}>
            Delete
          </button>
        </div>
      )}
    </div>
  );
}
