"use client";
/**
 * Renders one chat item (see chat-items.ts): user and assistant messages, tool calls with their
 * results, custom messages, and the two summary rows of session-engine.md §16.7. Content is rendered as text or
 * safe Markdown only (never raw HTML).
 */
import { memo, useMemo } from "react";
import type {
  AssistantMessage,
  ImageContent,
  TextContent,
  ToolResultMessage,
  UserMessage,
} from "@/lib/session/types";
import type { ChatItem, ChatItems } from "../chat-items";
import { Markdown } from "./markdown";
import { contentText, itemMarkdown } from "../chat-markdown";
import { CopyButton } from "./copy-button";
import { splitPreamble } from "./preamble";
import { PreambleView } from "./preamble-view";
import { ToolCallView } from "./tool-call-view";
import { citedIds } from "@/lib/compaction/citations";
import { groupDigits } from "@/lib/text/group-digits";
import { compactionEffectText, nextPromptTokens, type SummaryCallCost } from "@/lib/usage/compaction-effect";

const textOf = (content: string | (TextContent | ImageContent)[]) => contentText(content);
const hasImages = (content: string | (TextContent | ImageContent)[]) => typeof content !== "string" && content.some((c) => c.type === "image");

function Images({ content }: { content: string | (TextContent | ImageContent)[] }) {
  if (typeof content === "string") return null;
  const images = content.filter((c): c is ImageContent => c.type === "image");
  return (
    <>
      {images.map((img, i) =>
        img.data.startsWith("blob:") ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: images have no id
          <span key={i} className="text-xs text-muted">
            [missing image: {img.mimeType}]
          </span>
        ) : (
          // biome-ignore lint/performance/noImgElement: inline base64 data, nothing for next/image to optimise
          // biome-ignore lint/suspicious/noArrayIndexKey: images have no id
          <img key={i} alt="Attached" className="max-h-64 rounded" src={`data:${img.mimeType};base64,${img.data}`} />
        ),
      )}
    </>
  );
}

function UserView({ message }: { message: UserMessage }) {
  // Agent preambles and command records fold into one labelled block (preamble.ts).
  const { blocks, rest } = useMemo(() => splitPreamble(contentText(message.content, "\n")), [message.content]);
  const preamble = <PreambleView blocks={blocks} />;
  if (blocks.length > 0 && rest === "" && !hasImages(message.content)) return preamble;
  return (
    <div className="space-y-1">
      <div className="rounded-lg bg-panel px-3 py-2">
        <div className="mb-1 text-xs font-semibold text-muted">{message.synthetic ? "User (automatic)" : "User"}</div>
        <div className="whitespace-pre-wrap">{blocks.length > 0 ? rest : textOf(message.content)}</div>
        <Images content={message.content} />
      </div>
      {preamble}
    </div>
  );
}

function AssistantView({ message, items, cwd }: { message: AssistantMessage; items: ChatItems; cwd?: string }) {
  return (
    <div className="space-y-2">
      <div className="text-xs font-semibold text-muted">
        Assistant <span className="font-normal">· {message.provider}/{message.model}</span>
        {message.stopReason === "aborted" && <span className="ml-2 text-amber-800 dark:text-amber-300">stopped</span>}
        {message.stopReason === "length" && <span className="ml-2 text-amber-800 dark:text-amber-300">cut off (length)</span>}
      </div>
      {message.content.map((block, i) => {
        if (block.type === "thinking")
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: content blocks have no id
            <details key={i} className="text-sm text-muted">
              <summary className="cursor-pointer select-none">Thinking</summary>
              <div className="mt-1 whitespace-pre-wrap">{block.thinking}</div>
            </details>
          );
        if (block.type === "text")
          // biome-ignore lint/suspicious/noArrayIndexKey: content blocks have no id
          return <Markdown key={i} text={block.text} />;
        return <ToolCallView key={block.id} call={block} result={items.resultsByCallId.get(block.id)} cwd={cwd} />;
      })}
      {message.stopReason === "error" && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {message.errorMessage ?? "The model returned an error."}
        </p>
      )}
    </div>
  );
}

function ToolResultView({ message }: { message: ToolResultMessage }) {
  return (
    <details className="rounded border border-line text-sm">
      <summary className="cursor-pointer px-2 py-1 font-mono">[{message.toolName}] result</summary>
      <pre className="max-h-64 overflow-auto px-2 py-1 font-mono text-xs whitespace-pre-wrap">{textOf(message.content)}</pre>
    </details>
  );
}

/** The entries a cited summary names (`[src: …]`, docs/session-engine.md §19.2), each selecting its node. */
/** The prompt the next loaded reply after `item` reported (the chat's items are the path's shown window). */
function nextPrompt(items: ChatItems, item: ChatItem): { nextPrompt?: number } {
  const index = items.items.indexOf(item);
  if (index < 0) return {};
  const prompt = nextPromptTokens(
    items.items.map((i) => i.entry),
    index,
  );
  return prompt === undefined ? {} : { nextPrompt: prompt };
}

function CitedSources({ summary, onInspect }: { summary: string; onInspect?: (entryId: string) => void }) {
  const ids = citedIds(summary);
  if (ids.length === 0 || !onInspect) return null;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-1 text-xs text-muted">
      Sources:
      {ids.map((id) => (
        <button key={id} type="button" className="font-mono text-[var(--color-accent)] underline" onClick={() => onInspect(id)}>
          {id}
        </button>
      ))}
    </p>
  );
}

function SummaryRow({
  tag,
  collapsed,
  expanded,
  tone,
  footer,
}: {
  tag: string;
  collapsed: string;
  expanded: string;
  tone: "compaction" | "branch";
  footer?: React.ReactNode;
}) {
  const color = tone === "compaction" ? "var(--color-compaction)" : "var(--color-branch)";
  return (
    <details className="rounded border-l-4 bg-panel px-3 py-2" style={{ borderColor: color }}>
      <summary className="cursor-pointer select-none">
        <span className="mr-2 font-mono text-xs font-semibold" style={{ color }}>
          {tag}
        </span>
        {collapsed}
      </summary>
      <div className="mt-2">
        <Markdown text={expanded} />
        {footer}
      </div>
    </details>
  );
}

export const MessageView = memo(function MessageView({
  item,
  items,
  selected,
  flash,
  onInspect,
  cwd,
  summaryCall,
}: {
  item: ChatItem;
  items: ChatItems;
  selected?: boolean;
  /** A jump landed here: highlighted for a moment (use-chat-window.ts). */
  flash?: boolean;
  onInspect?: (entryId: string) => void;
  /** The session's folder: tool headers show paths inside it relative to it. */
  cwd?: string;
  /** A compaction's own model call (null: none recorded; undefined: not loaded yet). */
  summaryCall?: SummaryCallCost | null;
}) {
  const muted = !item.inContext;
  let body: React.ReactNode = null;
  if (item.kind === "compaction") {
    const e = item.entry;
    const n = groupDigits(e.tokensBefore);
    body = (
      <SummaryRow
        tag="[compaction]"
        tone="compaction"
        collapsed={`Compacted from ${n} tokens${e.shortSummary ? ` — ${e.shortSummary}` : ""}`}
        expanded={`**Compacted from ${n} tokens**\n\n${e.summary}`}
        footer={
          <>
            {summaryCall !== undefined && (
              <p className="mt-2 text-xs text-muted" data-testid="compaction-effect">
                {compactionEffectText({
                  tokensBefore: e.tokensBefore,
                  ...(summaryCall ? { call: summaryCall } : {}),
                  ...nextPrompt(items, item),
                })}
              </p>
            )}
            <CitedSources summary={e.summary} onInspect={onInspect} />
          </>
        }
      />
    );
  } else if (item.kind === "branchSummary") {
    body = <SummaryRow tag="[branch]" tone="branch" collapsed="Branch summary" expanded={`**Branch Summary**\n\n${item.entry.summary}`} />;
  } else if (item.kind === "notice") {
    body = (
      <p className="px-3 text-xs text-muted">
        <span className="font-semibold">[{item.entry.customType.replace(/^[^/]*\//, "")}]</span> {item.entry.notice}
      </p>
    );
  } else if (item.kind === "custom") {
    body = (
      <div className="rounded border border-line px-3 py-2 text-sm">
        <div className="text-xs font-semibold text-muted">[{item.entry.customType}]</div>
        <div className="whitespace-pre-wrap">{textOf(item.entry.content)}</div>
      </div>
    );
  } else {
    const m = item.entry.message;
    if (m.role === "user") body = <UserView message={m} />;
    else if (m.role === "assistant") body = <AssistantView message={m} items={items} cwd={cwd} />;
    else if (m.role === "toolResult") {
      // Shown inline under its call; standalone only when the call is not on the path.
      if (items.callsById.has(m.toolCallId)) return null;
      body = <ToolResultView message={m} />;
    } else if (m.role === "bashExecution")
      body = (
        <div className="rounded border border-line px-3 py-2 font-mono text-sm">
          <div className="text-xs text-muted">[bash]: {m.command}</div>
          <pre className="max-h-64 overflow-auto text-xs whitespace-pre-wrap">{m.output || "(no output)"}</pre>
        </div>
      );
    else body = <div className="text-sm text-muted">[{m.role}]</div>;
  }
  const inspectable = item.kind === "message" && item.entry.message.role === "assistant";
  // A message that is all preamble has no words of its own to copy.
  const copyable =
    item.kind === "message" &&
    (item.entry.message.role === "assistant" || (item.entry.message.role === "user" && splitPreamble(contentText(item.entry.message.content, "\n")).rest !== ""));
  return (
    <article
      aria-label={item.kind === "message" ? `${item.entry.message.role} message` : item.kind}
      data-entry-id={item.entry.id}
      aria-current={selected ? "true" : undefined}
      data-highlighted={flash ? "true" : undefined}
      className={`group relative scroll-mt-2 rounded px-1 py-1 transition-colors ${muted ? "opacity-60" : ""} ${selected ? "ring-2 ring-[var(--color-accent)]" : ""} ${flash ? "bg-amber-100 dark:bg-amber-950" : ""}`}
    >
      {muted && <div className="mb-1 text-xs text-muted">Not in the model's context (summarised by a compaction)</div>}
      {body}
      {(inspectable || copyable) && (
        <div className="mt-1 flex items-center gap-3">
          {inspectable && onInspect && (
            <button type="button" onClick={() => onInspect(item.entry.id)} className="text-xs text-muted underline hover:text-[var(--fg)]">
              Inspect this turn
            </button>
          )}
          {copyable && <CopyButton text={() => itemMarkdown(item, cwd)} label="Copy message" />}
        </div>
      )}
    </article>
  );
});
