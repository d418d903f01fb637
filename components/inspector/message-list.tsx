"use client";
/**
 * The messages a turn sent, in order: role mark, markers (compaction summary, branch summary,
 * "kept from <firstKeptEntryId>", placeholder), the per-message token estimate, collapsible
 * content exactly as sent, and a link to the source entry (centres the canvas on it).
 * A long turn comes with its first and last pages only (`messageCount` says how many it sent):
 * the list then says how many are shown, and loads the rest on demand (paged-messages.tsx).
 */
import { memo } from "react";
import type { InspectedMessage, TurnView } from "@/lib/types/inspector";
import { type InspectTarget, inspectorKeys } from "@/lib/query/inspector";
import { SubagentLink } from "@/components/chat/messages/subagent-link";
import { formatNumber, formatTokens, messagePreview, messageText, ROLE_LABELS } from "./format";
import { PagedMessages } from "./paged-messages";
import { VirtualList } from "./virtual-list";

/** Where a windowed turn's further pages come from (absent: the list shows what the turn carries). */
export interface MessageSource {
  sessionId: string;
  target: InspectTarget;
}

const ROLE_MARKS: Record<InspectedMessage["role"], string> = { user: "U", assistant: "A", toolResult: "T" };

function Marker({ children, tone }: { children: string; tone: "compaction" | "branch" | "muted" }) {
  const color = tone === "compaction" ? "var(--color-compaction)" : tone === "branch" ? "var(--color-branch)" : "var(--muted)";
  return (
    <span className="rounded border px-1 text-[11px] font-medium" style={{ borderColor: color, color }}>
      {children}
    </span>
  );
}

export function EntryLink({ entryId, onFocusEntry }: { entryId: string | null; onFocusEntry(entryId: string): void }) {
  if (!entryId) return <span className="text-xs text-muted">no entry</span>;
  return (
    <button
      type="button"
      className="font-mono text-xs underline"
      aria-label={`Show entry ${entryId} on the canvas`}
      onClick={() => onFocusEntry(entryId)}
    >
      {entryId}
    </button>
  );
}

const MessageRow = memo(function MessageRow({
  m,
  firstKeptEntryId,
  onFocusEntry,
  as: Row = "li",
}: {
  m: InspectedMessage;
  firstKeptEntryId: string | null;
  onFocusEntry(entryId: string): void;
  /** "div" inside a VirtualList, whose rows are its own `<li>`s. */
  as?: "li" | "div";
}) {
  const linkable = m.sourceEntryId !== null && !m.placeholder;
  return (
    <Row className="border-b border-line px-2 py-1 text-sm" data-kind={m.kind}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs text-muted">{m.index + 1}.</span>
        <span
          className="inline-flex h-5 w-5 items-center justify-center rounded-full border border-line text-[11px] font-semibold"
          aria-hidden="true"
        >
          {ROLE_MARKS[m.role]}
        </span>
        <span className="font-medium">{ROLE_LABELS[m.role]}</span>
        {m.source === "compaction" && <Marker tone="compaction">{m.placeholder ? "Compaction summary (pending)" : "Compaction summary"}</Marker>}
        {m.source === "branchSummary" && <Marker tone="branch">Branch summary</Marker>}
        {m.firstKept && firstKeptEntryId && <Marker tone="compaction">{`kept from ${firstKeptEntryId}`}</Marker>}
        {m.kept && !m.firstKept && <span className="sr-only">kept</span>}
        {m.placeholder && m.source !== "compaction" && <Marker tone="muted">placeholder</Marker>}
        <span className="ml-auto text-xs text-muted">{formatTokens(m.tokens)}</span>
        {m.message.role === "toolResult" ? <SubagentLink result={m.message} /> : null}
        {linkable ? <EntryLink entryId={m.sourceEntryId} onFocusEntry={onFocusEntry} /> : null}
      </div>
      <details className="mt-0.5">
        <summary className="cursor-pointer truncate text-xs text-muted">{messagePreview(m.message)}</summary>
        <pre className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-panel p-2 font-mono text-xs">
          {messageText(m.message) || "(empty)"}
        </pre>
      </details>
    </Row>
  );
});

function SystemPrompt({ turn }: { turn: TurnView }) {
  if (!turn.system) return null;
  return (
    <div className="border-b border-line px-2 py-1 text-sm">
      <details>
        <summary className="cursor-pointer">
          <span className="font-medium">System prompt</span>
          {turn.tools?.length ? <span className="text-muted"> and {turn.tools.length} tool definitions</span> : null}
        </summary>
        <pre className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-panel p-2 font-mono text-xs">
          {turn.system}
          {turn.tools?.length ? `\n\nTools:\n${JSON.stringify(turn.tools, null, 2)}` : ""}
        </pre>
      </details>
    </div>
  );
}

/**
 * The messages sent, in a collapsible section of its own height (ui.md "Inspector": the long lists
 * come after the diff and never push it out of reach); a long list draws only the rows in view
 * (virtual-list.tsx), a windowed turn its loaded pages (paged-messages.tsx).
 */
export function MessageList({ turn, onFocusEntry, source }: { turn: TurnView; onFocusEntry(entryId: string): void; source?: MessageSource }) {
  if (turn.messageCount === 0) return <p className="p-2 text-sm text-muted">No messages were sent.</p>;
  const firstKeptEntryId = turn.compaction?.firstKeptEntryId ?? null;
  const row = (m: InspectedMessage) => <MessageRow key={`${m.index}:${m.hash}`} m={m} firstKeptEntryId={firstKeptEntryId} onFocusEntry={onFocusEntry} />;
  const windowed = turn.messages.length < turn.messageCount;
  const list =
    windowed && source ? (
      <div className="max-h-[28rem] overflow-auto">
        <ol aria-label="Messages sent, in order">
          <PagedMessages key={inspectorKeys.messages(source.sessionId, source.target, turn.messageCount).join("\u0000")} {...source} turn={turn} row={row} />
        </ol>
      </div>
    ) : (
      <VirtualList
        items={turn.messages}
        itemKey={(m) => `${m.index}:${m.hash}`}
        render={(m) => <MessageRow m={m} firstKeptEntryId={firstKeptEntryId} onFocusEntry={onFocusEntry} as="div" />}
        label="Messages sent, in order"
        ordered
        estimate={52}
        maxHeight="28rem"
      />
    );
  return (
    <details open className="rounded border border-line">
      <summary className="cursor-pointer px-2 py-1 text-sm font-medium">Messages sent ({formatNumber(turn.messageCount)})</summary>
      {windowed ? (
        <p className="px-2 text-xs text-muted">
          {formatNumber(turn.messageCount)} messages sent; the first and the last are shown, the rest load as you scroll.
        </p>
      ) : null}
      <SystemPrompt turn={turn} />
      {list}
    </details>
  );
}
