"use client";
/**
 * A summary with its source tags (`[src: 1a2b3c4d, …]`, docs/session-engine.md §19.2) turned into
 * links: each id selects its node on the canvas. Text outside the tags is shown as it is.
 */
import { Fragment } from "react";
import { parseCitations } from "@/lib/compaction/citations";

export function CitedText({ text, onFocusEntry }: { text: string; onFocusEntry(entryId: string): void }) {
  const segments = parseCitations(text);
  return (
    <>
      {segments.map((s, i) =>
        "ids" in s ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and never reorder
          <span key={i} className="whitespace-nowrap text-muted">
            [src:{" "}
            {s.ids.map((id, j) => (
              <Fragment key={id}>
                {j > 0 ? ", " : null}
                <button
                  type="button"
                  className="font-mono text-[var(--color-accent)] underline"
                  aria-label={`Source entry ${id}`}
                  onClick={() => onFocusEntry(id)}
                >
                  {id}
                </button>
              </Fragment>
            ))}
            ]
          </span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and never reorder
          <Fragment key={i}>{s.text}</Fragment>
        ),
      )}
    </>
  );
}
