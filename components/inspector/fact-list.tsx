"use client";
/**
 * A compaction's fact check as a list grouped by kind (docs/engine.md "Arbor extensions around compaction"): each fact says in words
 * whether the summary carried or dropped it (never by colour alone, ui.md) and links to the entry
 * it came from; the link selects that node on the canvas.
 */
import type { FactCheck } from "@/lib/compaction/fact-check";
import { EntryLink } from "./message-list";
import { VirtualList } from "./virtual-list";

export function FactList({ check, onFocusEntry, label }: { check: FactCheck; onFocusEntry(entryId: string): void; label: string }) {
  if (check.total === 0) return <p className="text-xs text-muted">No facts found in the summarised entries.</p>;
  return (
    <section className="space-y-2" aria-label={label}>
      {check.byKind.map((k) => {
        const facts = check.facts.filter((f) => f.kind === k.kind);
        const dropped = k.total - k.carried;
        return (
          <details key={k.kind} open={dropped > 0}>
            <summary className="cursor-pointer text-xs font-medium">
              {k.label}: {k.carried} of {k.total} carried
            </summary>
            <VirtualList
              items={facts}
              itemKey={(f) => `${f.kind}:${f.key}`}
              label={`${k.label} facts`}
              className="mt-1"
              itemClassName="flex items-baseline gap-2 py-px text-xs"
              estimate={20}
              maxHeight="16rem"
              render={(f) => (
                <>
                  <span className={`shrink-0 font-semibold ${f.carried ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}`}>
                    {f.carried ? "carried" : "dropped"}
                  </span>
                  <span className="min-w-0 flex-1 break-words font-mono">
                    {f.text}
                    {f.detail ? <span className="text-muted"> ({f.detail})</span> : null}
                    {f.inFileTagsOnly ? <span className="text-muted"> (file list only)</span> : null}
                  </span>
                  <EntryLink entryId={f.entryId} onFocusEntry={onFocusEntry} />
                </>
              )}
            />
          </details>
        );
      })}
    </section>
  );
}
