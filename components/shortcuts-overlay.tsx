"use client";
/**
 * "?" anywhere (outside a text field) lists the keyboard shortcuts (ui.md "Interactions"). The list
 * is the one place that names them: keep it in step with use-tree-keyboard.ts and the composer.
 */
import { useEffect, useState } from "react";
import { Modal } from "@/components/chat/modal";

export const SHORTCUTS: readonly { area: string; keys: readonly (readonly [string, string])[] }[] = [
  {
    area: "Anywhere",
    keys: [
      ["?", "Show this list"],
      ["Esc", "Close a dialog or this list"],
    ],
  },
  {
    area: "Session tree (canvas or list focused)",
    keys: [
      ["↑ ↓ ← →", "Select the parent, a child or a sibling"],
      ["Enter", "Open the selected turn or folded steps; on an entry, go there"],
      ["L", "Label the selected entry"],
      ["/", "Search the entries"],
      ["F / Shift+F", "Next / previous filter"],
      ["Esc", "Clear the search, then the selection"],
    ],
  },
  {
    area: "Chat",
    keys: [
      ["Enter", "Send the message"],
      ["Shift+Enter", "New line"],
      ["/compact [focus]", "Compact the session (typed as the message)"],
      ["Turn number, Enter", "Jump to that turn (the bar above the messages)"],
    ],
  },
];

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.matches("input, textarea, select"));
}

export function ShortcutsOverlay() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || e.defaultPrevented) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <Modal open={open} title="Keyboard shortcuts" onClose={() => setOpen(false)}>
      <div className="space-y-3">
        {SHORTCUTS.map((group) => (
          <section key={group.area} aria-label={group.area}>
            <h3 className="mb-1 text-sm font-semibold">{group.area}</h3>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 text-sm">
              {group.keys.map(([key, what]) => (
                <div key={key} className="contents">
                  <dt>
                    <kbd className="rounded border border-line bg-panel px-1 font-mono text-xs">{key}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <div className="mt-4 flex justify-end">
        <button type="button" onClick={() => setOpen(false)} className="rounded border border-line px-3 py-1.5">
          Close
        </button>
      </div>
    </Modal>
  );
}
