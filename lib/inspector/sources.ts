/**
 * Which entry each message sent to the model came from.
 * Pure: no network, disk or database access. Paths are root-first (session-engine.md §1.6 getBranch).
 *
 * Two directions:
 * - Forward (reconstruction, preview): `sourcedContext` takes each message's source entry from
 *   buildSourcedSessionContext (lib/session/context.ts), the same single walk that builds the
 *   context, and adds convertToLlm (session-engine.md §3) per message. Nothing walks the path twice.
 * - Backward (recorded calls): the agent's ModelCallRecord carries no entry ids, so a recorded
 *   message is matched to the entry whose converted message has the same `matchKey`. A pruned
 *   tool result is matched under both its current form and its original content (a call made
 *   before the prune sent the original). Compaction and branch summaries are matched through the
 *   prompt templates; if the templates changed since, a summary falls back to a text match.
 */
import { matchKey, contentHash } from "@/lib/content-address";
import type { MessageSource, SourcedMessage } from "@/lib/types/inspector";
import { buildSourcedSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/file/convert";
import type {
  AgentMessage,
  ImageContent,
  LlmMessage,
  PromptSet,
  SessionEntry,
  TextContent,
} from "@/lib/session/types";
import { compactionSummaryMessageOf, messageOfEntry } from "@/lib/session/entry-messages";

/** The message an entry puts into a context (session-engine.md §2 step 6, plus the step 7.1 summary). */
export function entryContextMessage(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type === "compaction") return compactionSummaryMessageOf(entry);
  if (entry.type === "branch_summary" && !entry.summary) return undefined;
  return messageOfEntry(entry);
}

function sourceKind(entry: SessionEntry | undefined): MessageSource {
  if (!entry) return "none";
  if (entry.type === "compaction") return "compaction";
  if (entry.type === "branch_summary") return "branchSummary";
  return "entry";
}

/**
 * What the model is sent for the path's last entry: convertToLlm per message, with sources.
 * Messages go through the per-object memo, so the path must hold no message that changes
 * afterwards (the preview's pruned copies are final before they are put in).
 */
export function sourcedContext(path: readonly SessionEntry[], prompts: PromptSet): SourcedMessage[] {
  const leaf = path.at(-1);
  if (!leaf) return [];
  const byId = new Map(path.map((e) => [e.id, e]));
  const { context, sourceEntryIds } = buildSourcedSessionContext(path, leaf.id, byId);
  const out: SourcedMessage[] = [];
  context.messages.forEach((agentMessage, i) => {
    const converted = convertOnce(agentMessage, prompts);
    if (!converted) return;
    const id = sourceEntryIds[i]!;
    out.push({ message: converted.message, hash: converted.hash, sourceEntryId: id, source: sourceKind(byId.get(id)) });
  });
  return out;
}

type Converted = { message: LlmMessage; hash: string } | null;
const conversions = new WeakMap<PromptSet, WeakMap<AgentMessage, Converted>>();

/**
 * convertToLlm of one message and its content hash, memoized per message object and prompt
 * set: the read model's entry messages are never mutated, so each is converted and hashed once,
 * not per request. Messages built per call (summaries) are new objects and simply miss; the
 * preview keeps its pruned copies (preview.ts), so they hit from its second build on.
 */
function convertOnce(agentMessage: AgentMessage, prompts: PromptSet): Converted {
  let memo = conversions.get(prompts);
  if (!memo) {
    memo = new WeakMap();
    conversions.set(prompts, memo);
  }
  const hit = memo.get(agentMessage);
  if (hit !== undefined) return hit;
  const converted = convert(agentMessage, prompts);
  memo.set(agentMessage, converted);
  return converted;
}

function convert(agentMessage: AgentMessage, prompts: PromptSet): Converted {
  const [message] = convertToLlm([agentMessage], prompts);
  return message ? { message, hash: contentHash(message) } : null;
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
 * Adds `entries` (appended after those already indexed, in file order) to `index`. `keyOf`
 * computes an entry's current-form key (default entryMatchKey; callers pass a memo per entry
 * object, since hashing every entry is most of the cost). A pruned tool result is also indexed
 * under its original content (`prunedOriginals`).
 */
export function extendEntryMatchIndex(
  index: EntryMatchIndex,
  entries: readonly SessionEntry[],
  prompts: PromptSet,
  prunedOriginals: ReadonlyMap<string, (TextContent | ImageContent)[]> = new Map(),
  keyOf: (entry: SessionEntry) => string | undefined = (entry) => entryMatchKey(entry, prompts),
): EntryMatchIndex {
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

/** The match index of `entries` (extendEntryMatchIndex from empty). */
export function buildEntryMatchIndex(
  entries: readonly SessionEntry[],
  prompts: PromptSet,
  prunedOriginals?: ReadonlyMap<string, (TextContent | ImageContent)[]>,
  keyOf?: (entry: SessionEntry) => string | undefined,
): EntryMatchIndex {
  return extendEntryMatchIndex(new Map(), entries, prompts, prunedOriginals, keyOf);
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
/** What matchRecordedSources reads of the session: its id index and its (non-empty) summaries. */
export interface SummaryLookup {
  byId: ReadonlyMap<string, SessionEntry>;
  summaries: readonly SessionEntry[];
}

export function summaryLookup(entries: readonly SessionEntry[]): SummaryLookup {
  return {
    byId: new Map(entries.map((e) => [e.id, e])),
    summaries: entries.filter((e) => (e.type === "compaction" || e.type === "branch_summary") && e.summary),
  };
}

/**
 * `keyOf` gives a sent message's matchKey (default: computed; the inspector passes a memo by
 * content hash, so a message stored once is keyed once).
 */
export function matchRecordedSources(
  messages: readonly LlmMessage[],
  session: readonly SessionEntry[] | SummaryLookup,
  index: EntryMatchIndex,
  keyOf: (message: LlmMessage, i: number) => string = (message) => matchKey(message),
): { sourceEntryId: string | null; source: MessageSource }[] {
  const entries = Array.isArray(session) ? summaryLookup(session) : (session as SummaryLookup);
  const used = new Set<string>();
  return messages.map((message, i) => {
    let id = index.get(keyOf(message, i))?.find((candidate) => !used.has(candidate));
    if (!id && message.role === "user") {
      // Templates edited since the call: a summary still shows its text verbatim.
      const text = userText(message);
      id = entries.summaries.find((e) => !used.has(e.id) && text.includes(`<summary>\n${String((e as { summary?: unknown }).summary)}\n</summary>`))?.id;
    }
    if (!id) return { sourceEntryId: null, source: "none" as const };
    used.add(id);
    return { sourceEntryId: id, source: sourceKind(entries.byId.get(id)) };
  });
}
