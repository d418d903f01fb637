/**
 * Pins (an Arbor extension of session-engine.md §1.4: session-engine.md §19).
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - A pin is stored as a pi `custom` entry (extension state, never in context by itself):
 *   `{ type: "custom", customType: "arbor.pin", data: { targetId, pinned } }`, appended under
 *   the leaf like a label. pi and every reader that does not know pins keep it verbatim, so
 *   import and export of pi JSONL round-trip it unchanged.
 * - The pin state is the last pin entry per target in file order (like labels, session-engine.md §1.6),
 *   over the whole session, not only the current branch.
 * - A compaction made while an entry before its cut is pinned records that entry's id in
 *   `pinnedEntryIds`; the context then carries it right after the summary as one `custom`
 *   message (`customType: "arbor.pinned"`, "Pinned by the user") holding the entry's content
 *   verbatim. With no pins nothing here changes any result of the contract.
 */
import { messageOfEntry } from "@/lib/session/entry-messages";
import type { AgentMessage, CustomMessage, ImageContent, SessionEntry, TextContent } from "@/lib/session/types";

export const PIN_CUSTOM_TYPE = "arbor.pin";
/** customType of the message that carries a pinned entry after a compaction summary. */
export const PINNED_MESSAGE_TYPE = "arbor.pinned";
export const PINNED_HEADER = "Pinned by the user";

export interface PinData {
  targetId: string;
  pinned: boolean;
}

/** The pin change an entry makes, or undefined when it is not a (well-formed) pin entry. */
export function pinOf(entry: { type: string; customType?: unknown; data?: unknown }): PinData | undefined {
  if (entry.type !== "custom" || entry.customType !== PIN_CUSTOM_TYPE) return undefined;
  const data = entry.data as { targetId?: unknown; pinned?: unknown } | undefined;
  if (!data || typeof data.targetId !== "string" || typeof data.pinned !== "boolean") return undefined;
  return { targetId: data.targetId, pinned: data.pinned };
}

/** The fields of a new pin entry (the store adds id, parentId and timestamp). */
export function pinEntryFields(targetId: string, pinned: boolean) {
  return { type: "custom" as const, customType: PIN_CUSTOM_TYPE, data: { targetId, pinned } };
}

/** Ids pinned now: the last pin entry per target in file order wins. */
export function pinnedIds(entries: Iterable<{ type: string; customType?: unknown; data?: unknown }>): Set<string> {
  const pinned = new Set<string>();
  for (const entry of entries) {
    const pin = pinOf(entry);
    if (!pin) continue;
    if (pin.pinned) pinned.add(pin.targetId);
    else pinned.delete(pin.targetId);
  }
  return pinned;
}

/** The message a pinnable entry stands for; settings, labels and compactions have none. */
export function pinnableMessageOf(entry: SessionEntry): AgentMessage | undefined {
  return messageOfEntry(entry);
}

type Block = TextContent | ImageContent;
const text = (t: string): TextContent => ({ type: "text", text: t });

function blocks(content: unknown): Block[] {
  if (typeof content === "string") return [text(content)];
  if (!Array.isArray(content)) return [];
  return content.filter((b): b is Block => b?.type === "text" || b?.type === "image");
}

/** The content of a message, verbatim, as custom-message blocks (thinking is not carried). */
function contentOf(message: AgentMessage): Block[] {
  switch (message.role) {
    case "user":
    case "custom":
    case "hookMessage":
      return blocks(message.content);
    case "assistant":
      return (Array.isArray(message.content) ? message.content : []).flatMap((b): Block[] => {
        if (b.type === "text") return [text(b.text)];
        if (b.type === "toolCall") return [text(`Tool call ${b.name}(${JSON.stringify(b.arguments ?? {})})`)];
        return [];
      });
    case "toolResult":
      return [text(`Tool result of ${message.toolName}${message.isError ? " (error)" : ""}:`), ...blocks(message.content)];
    case "bashExecution":
      return [text(`$ ${message.command}\n${message.output}`)];
    case "pythonExecution":
      return [text(`${message.code}\n${message.output}`)];
    case "branchSummary":
    case "compactionSummary":
      return [text(message.summary)];
    case "fileMention":
      return message.files.map((f) => text(`${f.path}\n${f.content}`));
    default:
      return [];
  }
}

/** The `custom` message that carries pinned `entry` after a compaction summary. */
export function pinnedMessageOf(entry: SessionEntry, message: AgentMessage): CustomMessage {
  const role = message.role === "custom" ? "custom message" : `${message.role} message`;
  return {
    role: "custom",
    customType: PINNED_MESSAGE_TYPE,
    content: [text(`${PINNED_HEADER} (${role} ${entry.id}):`), ...contentOf(message)],
    display: true,
    details: { entryId: entry.id },
    timestamp: Date.parse(entry.timestamp),
  };
}

/** The id a carried pinned message stands for, or undefined for any other message. */
export function pinnedEntryIdOf(message: AgentMessage): string | undefined {
  if (message.role !== "custom" || message.customType !== PINNED_MESSAGE_TYPE) return undefined;
  const id = (message.details as { entryId?: unknown } | undefined)?.entryId;
  return typeof id === "string" ? id : undefined;
}
