/**
 * Which entry each message sent to the model came from.
 * Pure: no network, disk or database access. Paths are root-first (spec §1.6 getBranch).
 *
 * Two directions:
 * - Forward (reconstruction, preview): `sourceEntryIds(path, messages)` walks the path the way
 *   buildSessionContext does (spec §2 steps 6–8: the compaction summary first, then the entries
 *   from firstKeptEntryId up to the compaction, then everything after it) and pairs each
 *   emitted message with its entry. `sourcedContext` adds convertToLlm (spec §3) per message.
 * - Backward (recorded calls): the agent's ModelCallRecord carries no entry ids, so a recorded
 *   message is matched to the entry whose converted message has the same `matchKey`. A pruned
 *   tool result is matched under both its current form and its original content (a call made
 *   before the prune sent the original). Compaction and branch summaries are matched through the
 *   prompt templates; if the templates changed since, a summary falls back to a text match.
 */
import { matchKey, contentHash } from "@/lib/inspector/canonical";
import type { MessageSource, SourcedMessage } from "@/lib/inspector/types";
import { buildSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/convert";
import type {
  AgentMessage,
  CompactionEntry,
  ImageContent,
  LlmMessage,
  PromptSet,
  SessionEntry,
  TextContent,
} from "@/lib/session/types";
import { branchSummaryMessageOf, compactionSummaryMessageOf, customMessageOf } from "@/lib/session/entry-messages";
import { pinnableMessageOf, pinnedEntryIdOf } from "@/lib/session/pins";

/** The message an entry puts into a context (spec §2 step 6, plus the step 7.1 summary). */
export function entryContextMessage(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return entry.message;
    case "custom_message":
      return customMessageOf(entry);
    case "branch_summary":
      return entry.summary ? branchSummaryMessageOf(entry) : undefined;
    case "compaction":
      return compactionSummaryMessageOf(entry);
    default:
      return undefined;
  }
}

function emits(entry: SessionEntry): boolean {
  return entry.type !== "compaction" && entryContextMessage(entry) !== undefined;
}

/** The last compaction on the path and where its kept entries start (spec §2 step 7.2). */
export function compactionOnPath(path: readonly SessionEntry[]): { index: number; keptFrom: number; entry: CompactionEntry } | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i];
    if (entry?.type !== "compaction") continue;
    let keptFrom = i; // firstKeptEntryId not before the compaction ⇒ nothing kept
    for (let j = 0; j < i; j++) {
      if (path[j]?.id === entry.firstKeptEntryId) {
        keptFrom = j;
        break;
      }
    }
    return { index: i, keptFrom, entry };
  }
  return null;
}

/** The entries, in order, whose messages buildSessionContext emits for the path's last entry. */
export function emittedEntries(path: readonly SessionEntry[]): SessionEntry[] {
  const compaction = compactionOnPath(path);
  if (!compaction) return path.filter(emits);
  // Pinned entries the compaction carries come right after its summary (spec §19).
  const pinned = new Set(Array.isArray(compaction.entry.pinnedEntryIds) ? compaction.entry.pinnedEntryIds : []);
  return [
    compaction.entry as SessionEntry,
    ...(pinned.size ? path.slice(0, compaction.keptFrom).filter((e) => pinned.has(e.id) && pinnableMessageOf(e)) : []),
    ...path.slice(compaction.keptFrom, compaction.index).filter(emits),
    ...path.slice(compaction.index + 1).filter(emits),
  ];
}

/**
 * Entry id of each of `messages` (buildSessionContext's output for the path's last entry).
 * When the walk does not line up (messages from elsewhere), message entries are still found by
 * identity and everything else is null.
 */
export function sourceEntryIds(path: readonly SessionEntry[], messages: readonly AgentMessage[]): (string | null)[] {
  const emitted = emittedEntries(path);
  const aligned =
    emitted.length === messages.length &&
    emitted.every((e, i) => e.type !== "message" || e.message === messages[i] || pinnedEntryIdOf(messages[i]!) === e.id);
  if (aligned) return emitted.map((e) => e.id);
  const byMessage = new Map<AgentMessage, string>();
  for (const e of path) if (e.type === "message") byMessage.set(e.message, e.id);
  return messages.map((m) => byMessage.get(m) ?? null);
}

function sourceKind(entry: SessionEntry | undefined): MessageSource {
  if (!entry) return "none";
  if (entry.type === "compaction") return "compaction";
  if (entry.type === "branch_summary") return "branchSummary";
  return "entry";
}

/** What the model is sent for the path's last entry: convertToLlm per message, with sources. */
export function sourcedContext(path: readonly SessionEntry[], prompts: PromptSet): SourcedMessage[] {
  const leaf = path.at(-1);
  if (!leaf) return [];
  const { messages } = buildSessionContext(path, leaf.id);
  const ids = sourceEntryIds(path, messages);
  const byId = new Map(path.map((e) => [e.id, e]));
  const out: SourcedMessage[] = [];
  messages.forEach((agentMessage, i) => {
    const [message] = convertToLlm([agentMessage], prompts);
    if (!message) return;
    const id = ids[i] ?? null;
    out.push({ message, hash: contentHash(message), sourceEntryId: id, source: sourceKind(id ? byId.get(id) : undefined) });
  });
  return out;
}

/** matchKey → entry ids (file order) for every form in which an entry can have been sent. */
export type EntryMatchIndex = Map<string, string[]>;

/** matchKey of the message an entry puts into a context (after convertToLlm), or undefined. */
export function entryMatchKey(entry: SessionEntry, prompts: PromptSet): string | undefined {
  const message = entryContextMessage(entry);
  const [converted] = message ? convertToLlm([message], prompts) : [];
  return converted ? matchKey(converted) : undefined;
}

/**
 * `keyOf` computes an entry's current-form key (default entryMatchKey; callers pass a memo per
 * entry object, since hashing every entry per request is most of the cost).
 */
export function buildEntryMatchIndex(
  entries: readonly SessionEntry[],
  prompts: PromptSet,
  prunedOriginals: ReadonlyMap<string, (TextContent | ImageContent)[]> = new Map(),
  keyOf: (entry: SessionEntry) => string | undefined = (entry) => entryMatchKey(entry, prompts),
): EntryMatchIndex {
  const index: EntryMatchIndex = new Map();
  const addKey = (key: string | undefined, id: string) => {
    if (key === undefined) return;
    const ids = index.get(key);
    if (!ids) index.set(key, [id]);
    else if (ids.at(-1) !== id) ids.push(id);
  };
  for (const entry of entries) {
    addKey(keyOf(entry), entry.id);
    const original = prunedOriginals.get(entry.id);
    const message = original ? entryContextMessage(entry) : undefined;
    if (original && message?.role === "toolResult") {
      const { prunedAt: _prunedAt, ...unpruned } = message;
      const [converted] = convertToLlm([{ ...unpruned, content: original }], prompts);
      addKey(converted ? matchKey(converted) : undefined, entry.id);
    }
  }
  return index;
}

function userText(message: LlmMessage): string {
  if (message.role !== "user") return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/**
 * Source entry of each recorded message. Each entry is used at most once per call, and among
 * equal messages the earliest unused entry wins, so repeated identical messages map in order.
 */
export function matchRecordedSources(
  messages: readonly LlmMessage[],
  entries: readonly SessionEntry[],
  index: EntryMatchIndex,
): { sourceEntryId: string | null; source: MessageSource }[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const used = new Set<string>();
  const summaries = entries.filter((e) => (e.type === "compaction" || e.type === "branch_summary") && e.summary);
  return messages.map((message) => {
    let id = index.get(matchKey(message))?.find((candidate) => !used.has(candidate));
    if (!id && message.role === "user") {
      // Templates edited since the call: a summary still shows its text verbatim.
      const text = userText(message);
      id = summaries.find((e) => !used.has(e.id) && text.includes(`<summary>\n${String(e.summary)}\n</summary>`))?.id;
    }
    if (!id) return { sourceEntryId: null, source: "none" as const };
    used.add(id);
    return { sourceEntryId: id, source: sourceKind(byId.get(id)) };
  });
}
