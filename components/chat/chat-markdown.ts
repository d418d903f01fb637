/**
 * Chat items as Markdown, for "Copy" on a message and "Copy as Markdown" of the conversation
 * (ui.md "Chat"): what a person reads, not the stored JSON — the words of user and assistant
 * messages, tool calls as their one-line headers (tool-header.ts), summaries with their tag;
 * thinking and tool outputs are left out, preambles are named, not pasted. Pure.
 */
import type { ImageContent, TextContent } from "@/lib/session/types";
import type { ChatItem } from "./chat-items";
import { preambleTitle, splitPreamble } from "./messages/preamble";
import { toolHeader } from "./messages/tool-header";

export function contentText(content: string | (TextContent | ImageContent)[], joiner = ""): string {
  return typeof content === "string" ? content : content.map((c) => (c.type === "text" ? c.text : "")).join(joiner);
}

/** One item's Markdown, without a heading; "" for items that have none (a tool result shown under its call). */
export function itemMarkdown(item: ChatItem, cwd?: string): string {
  if (item.kind === "compaction") return `[compaction] ${item.entry.summary}`;
  if (item.kind === "branchSummary") return `[branch summary] ${item.entry.summary}`;
  if (item.kind === "custom") return contentText(item.entry.content, "\n");
  if (item.kind === "notice") return `_${item.entry.notice ?? ""}_`;
  const m = item.entry.message;
  if (m.role === "user") {
    const { blocks, rest } = splitPreamble(contentText(m.content, "\n"));
    return [blocks.length ? `_(${preambleTitle(blocks)})_` : "", rest].filter(Boolean).join("\n\n");
  }
  if (m.role === "assistant") {
    const parts: string[] = [];
    for (const b of m.content) {
      if (b.type === "text" && b.text.trim()) parts.push(b.text.trim());
      else if (b.type === "toolCall") parts.push(`\`${toolHeader(b, cwd)}\``);
    }
    if (m.stopReason === "error" && m.errorMessage) parts.push(`> Error: ${m.errorMessage}`);
    return parts.join("\n\n");
  }
  if (m.role === "bashExecution") return `\`$ ${m.command}\``;
  return "";
}

function heading(item: ChatItem): string {
  if (item.kind === "compaction") return "Compaction";
  if (item.kind === "branchSummary") return "Branch summary";
  if (item.kind === "custom" || item.kind === "notice") return item.entry.customType;
  const role = item.entry.message.role;
  return role === "user" ? "User" : role === "assistant" ? "Assistant" : role === "bashExecution" ? "Shell" : role;
}

/** The conversation: one `## Role` section per item that has words. */
export function conversationMarkdown(items: readonly ChatItem[], cwd?: string): string {
  const sections: string[] = [];
  for (const item of items) {
    const body = itemMarkdown(item, cwd);
    if (body) sections.push(`## ${heading(item)}\n\n${body}`);
  }
  return `${sections.join("\n\n")}\n`;
}
