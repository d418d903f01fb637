/**
 * The skeleton across entries: what one entry's facts (tree-skeleton.ts) cannot say alone.
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - `resolveSkeleton` gives a toolResult the §16.2 text of the call it answers (session-engine.md
 *   §16.2), found among every assistant's calls in one linear pass; `toolCallTexts` /
 *   `toolCallIdAt` read one assistant's calls (skeleton-table.ts keeps them per entry).
 * - Labels, pins and archive changes are read off the rows in file order, the last one winning
 *   (session-engine.md §1.6, §19, §19.4).
 */
import { toolCallText } from "@/lib/session/tree/tree-row-text";
import type { SessionEntry, ToolCall } from "@/lib/session/types";
import { clipText, type SkeletonEntry, skeletonFacts } from "@/lib/session-view/tree-skeleton";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

const NO_CALL_TEXTS: ReadonlyArray<readonly [string, string]> = Object.freeze([]);

/** Whether `entry` can have tool calls (an assistant message): the only entries toolCallTexts reads. */
export function mayCallTools(entry: SessionEntry): entry is SessionEntry & { type: "message"; message: Record<string, unknown> } {
  return entry.type === "message" && isRecord(entry.message) && entry.message.role === "assistant";
}

/** The §16.2 texts of an assistant's tool calls, by call id (one shared empty list for other entries). */
export function toolCallTexts(entry: SessionEntry): ReadonlyArray<readonly [string, string]> {
  const content = mayCallTools(entry) ? entry.message.content : undefined;
  if (!Array.isArray(content)) return NO_CALL_TEXTS;
  const out: [string, string][] = [];
  for (const block of content) {
    if (isRecord(block) && block.type === "toolCall" && typeof block.id === "string") {
      out.push([block.id, clipText(toolCallText(block as unknown as ToolCall))]);
    }
  }
  return out.length > 0 ? out : NO_CALL_TEXTS;
}

/** The id of call `position` (0-based) among those toolCallTexts lists for `entry` (cheap: no text). */
export function toolCallIdAt(entry: SessionEntry, position: number): string | undefined {
  const content = mayCallTools(entry) ? entry.message.content : undefined;
  if (!Array.isArray(content)) return undefined;
  let at = 0;
  for (const block of content) {
    if (isRecord(block) && block.type === "toolCall" && typeof block.id === "string" && at++ === position) return block.id;
  }
  return undefined;
}

export interface SkeletonMemo {
  facts: (entry: SessionEntry) => SkeletonEntry;
  calls: (entry: SessionEntry) => ReadonlyArray<readonly [string, string]>;
}

const direct: SkeletonMemo = { facts: skeletonFacts, calls: toolCallTexts };

/**
 * The skeleton of every entry, in the given (file) order, toolResult texts resolved against
 * every assistant's calls (a later duplicate call id wins, as buildToolCallIndex does).
 * Memoised facts are never mutated: a resolved toolResult is a copy.
 */
export function resolveSkeleton(entries: readonly SessionEntry[], memo: SkeletonMemo = direct): SkeletonEntry[] {
  const callText = new Map<string, string>();
  for (const e of entries) for (const [id, text] of memo.calls(e)) callText.set(id, text);
  const out: SkeletonEntry[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const s = memo.facts(entries[i]!);
    const text = s.toolCallId === undefined ? undefined : callText.get(s.toolCallId);
    out[i] = text === undefined || text === s.text ? s : { ...s, text };
  }
  return out;
}

/** Labels from the label skeletons in file order, the last one winning (session-engine.md §1.6). */
export function skeletonLabels(rows: readonly SkeletonEntry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const s of rows) {
    if (s.type !== "label" || !s.targetId) continue;
    if (s.labelValue) {
      labels.delete(s.targetId);
      labels.set(s.targetId, s.labelValue);
    } else labels.delete(s.targetId);
  }
  return labels;
}

/** Ids pinned now, from the pin skeletons in file order, the last one winning (session-engine.md §19). */
export function skeletonPins(rows: readonly SkeletonEntry[]): Set<string> {
  const pins = new Set<string>();
  for (const s of rows) {
    if (s.pinned === undefined || !s.targetId) continue;
    if (s.pinned) pins.add(s.targetId);
    else pins.delete(s.targetId);
  }
  return pins;
}

/** The archive changes of the skeleton in file order (session-engine.md §19.4), for `archivedIds`. */
export function skeletonArchiveChanges(rows: readonly SkeletonEntry[]): { targetId: string; archived: boolean }[] {
  const out: { targetId: string; archived: boolean }[] = [];
  for (const s of rows) if (s.archived !== undefined && s.targetId) out.push({ targetId: s.targetId, archived: s.archived });
  return out;
}
