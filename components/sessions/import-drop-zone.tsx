"use client";
/**
 * "Import session": a file picker and a drop target for one or more pi / oh-my-pi, Claude Code or Codex CLI `.jsonl`
 * files, Gemini CLI recordings or opencode exports (`.json`), with one progress row per file (ui.md "Long work": progress and Cancel; cancelling
 * saves nothing).
 */
import { useRef } from "react";
import { useFileDrop } from "@/components/ui-hooks/use-file-drop";
import { readableFormats } from "./format";
import { ImportRow } from "./import-row";
import { useImports } from "./use-imports";

export function ImportDropZone() {
  const { items, ...actions } = useImports();
  const input = useRef<HTMLInputElement>(null);
  const { dragging, handlers } = useFileDrop((files) => {
    if (files.length > 0) actions.add(files);
  });

  return (
    <section
      aria-label="Import session"
      {...handlers}
      className={`rounded-lg border-2 border-dashed p-4 transition-colors ${
        dragging ? "border-[var(--color-accent)] bg-blue-50 dark:bg-blue-950/40" : "border-line"
      }`}
    >
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={() => input.current?.click()}
          className="rounded border border-line px-3 py-1.5 font-medium hover:bg-[var(--panel)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--color-accent)]"
        >
          Import session
        </button>
        <p className="text-sm text-muted">
          {dragging ? "Drop to import." : `Choose or drop one or more session files from ${readableFormats()}.`}
        </p>
        <input
          ref={input}
          type="file"
          accept=".jsonl,.json"
          multiple
          hidden
          tabIndex={-1}
          onChange={(e) => {
            const files = Array.from(e.currentTarget.files ?? []);
            e.currentTarget.value = ""; // choosing the same file again still fires change
            if (files.length > 0) actions.add(files);
          }}
        />
      </div>
      {items.length > 0 && (
        <ul aria-label="Imports" className="mt-3 divide-y divide-[var(--border)] rounded border border-line bg-[var(--bg)]">
          {items.map((item) => (
            <ImportRow key={item.key} item={item} actions={actions} />
          ))}
        </ul>
      )}
    </section>
  );
}
