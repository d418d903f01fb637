"use client";
/**
 * The diff of a turn against the previous one: "Added (n)", "Removed (n) — compacted away or
 * pruned", "Changed (n)" (same entry, new content, e.g. a pruned tool result). Each item names
 * its role, position, tokens and source entry (a link that centres the canvas).
 */
import { type ReactNode, useState } from "react";
import type { CallDiff, DiffItem, TurnView } from "@/lib/types/inspector";
import { formatTokens, ROLE_LABELS } from "./format";
import { EntryLink } from "./message-list";
import { VirtualList } from "./virtual-list";

function Item({ item, onFocusEntry }: { item: DiffItem; onFocusEntry(entryId: string): void }) {
  return (
    <span className="flex flex-wrap items-center gap-2">
      <span className="text-xs text-muted">#{item.index + 1}</span>
      <span>{ROLE_LABELS[item.role]}</span>
      <span className="text-xs text-muted">{formatTokens(item.tokens)}</span>
      <EntryLink entryId={item.sourceEntryId} onFocusEntry={onFocusEntry} />
    </span>
  );
}

/**
 * A collapsible list: open when short; its items are drawn only while it is open, in a box of its
 * own height, only the rows in view of a long one (virtual-list.tsx). `items` are the first of
 * `count` (the server sends at most DIFF_LIST_MAX per list: a 100k-entry session's turn can remove
 * ~100k messages); the rest are counted.
 */
function Section<T>({ title, count, items, itemKey, render }: { title: string; count: number; items: readonly T[]; itemKey: (item: T) => string; render: (item: T) => ReactNode }) {
  const [open, setOpen] = useState(count > 0 && count <= 20);
  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-sm font-medium">{title}</summary>
      {count === 0 ? (
        <p className="ml-4 text-xs text-muted">None</p>
      ) : open ? (
        <>
          <VirtualList items={items} itemKey={itemKey} render={render} label={title} className="ml-4 list-disc space-y-0.5 text-sm" maxHeight="16rem" />
          {count > items.length ? <p className="ml-4 text-xs text-muted">and {count - items.length} more</p> : null}
        </>
      ) : null}
    </details>
  );
}

function previousName(turn: TurnView): string {
  const p = turn.previous;
  if (!p) return "";
  if (p.origin === "recorded") return `the previous recorded call${p.entryId ? ` (entry ${p.entryId})` : ""}`;
  return `the previous turn${p.entryId ? ` (entry ${p.entryId}, reconstructed)` : ""}`;
}

export function DiffView({ turn, onFocusEntry }: { turn: TurnView; onFocusEntry(entryId: string): void }) {
  const diff: CallDiff | null = turn.diff;
  if (!diff) {
    return <p className="text-sm text-muted">{turn.kind === "chat" ? "No previous turn to compare with." : "Summarization calls are not compared."}</p>;
  }
  return (
    <section aria-label="Changes since the previous turn" className="space-y-1">
      <h3 className="text-sm font-semibold">Changes since {previousName(turn)}</h3>
      <p className="text-xs text-muted">{diff.unchanged} unchanged</p>
      <Section
        title={`Added (${diff.counts.added})`}
        count={diff.counts.added}
        items={diff.added}
        itemKey={(i) => `a${i.index}`}
        render={(i) => <Item item={i} onFocusEntry={onFocusEntry} />}
      />
      <Section
        title={`Removed (${diff.counts.removed}) — compacted away or pruned`}
        count={diff.counts.removed}
        items={diff.removed}
        itemKey={(i) => `r${i.index}`}
        render={(i) => <Item item={i} onFocusEntry={onFocusEntry} />}
      />
      <Section
        title={`Changed (${diff.counts.changed})`}
        count={diff.counts.changed}
        items={diff.changed}
        itemKey={(c) => `c${c.after.index}`}
        render={(c) => (
          <>
            <Item item={c.after} onFocusEntry={onFocusEntry} />
            <span className="text-xs text-muted">
              {formatTokens(c.before.tokens)} before → {formatTokens(c.after.tokens)} now
            </span>
          </>
        )}
      />
    </section>
  );
}
