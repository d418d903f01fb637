"use client";
/** "Label…" (session-engine.md §16.4): an inline input; Enter saves, Esc cancels; an empty label removes it. */
import { useState } from "react";
import { Modal } from "@/components/chat/modal";

export function LabelDialog({ open, initial, onSave, onClose }: { open: boolean; initial: string; onSave: (label: string) => void; onClose: () => void }) {
  const [value, setValue] = useState(initial);
  return (
    <Modal open={open} title="Label entry" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSave(value.trim());
        }}
      >
        <label htmlFor="entry-label" className="mb-1 block text-sm font-medium">
          Label (empty to remove):
        </label>
        <input
          id="entry-label"
          // biome-ignore lint/a11y/noAutofocus: the dialog exists to type this one value
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className="w-full rounded border border-line bg-[var(--bg)] px-2 py-1"
        />
        <p className="mt-1 text-xs text-muted">enter: save  esc: cancel</p>
        <div className="mt-3 flex justify-end gap-2">
          <button type="button" onClick={onClose} className="rounded border border-line px-3 py-1.5">
            Cancel
          </button>
          <button type="submit" className="rounded bg-[var(--color-accent)] px-3 py-1.5 font-medium text-white dark:text-black">
            Save label
          </button>
        </div>
      </form>
    </Modal>
  );
}
