/**
 * buildTurnView: the Context tab's data for one turn, from the messages sent and their sources.
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - Messages keep their order; each gets its estimateTokens (session-engine.md §4), its bar kind (classify)
 *   and, after a compaction summary, `kept` for messages from entries older than that compaction
 *   (they were kept verbatim from firstKeptEntryId, session-engine.md §2 step 7.2). Entries are append-only,
 *   so "older" is file order. The first kept message carries `firstKept`.
 * - `diff` is against `previous` when given (diffCalls).
 * - The view holds EVERY message (`messageCount` = their number): what the browser gets is
 *   windowed afterwards (message-window.ts windowTurn), so all of the above stays exact.
 */
import { classify } from "@/lib/inspector/classify";
import { boundDiff, diffCalls } from "@/lib/inspector/diff";
import type {
  InspectedMessage,
  MessageRef,
  SourcedMessage,
  TurnOrigin,
  TurnView,
} from "@/lib/types/inspector";
import { estimateTokens } from "@/lib/compaction/tokens";
import type { SessionEntry } from "@/lib/session/types";

export type TurnViewInput = Omit<
  TurnView,
  "messages" | "messageCount" | "compaction" | "segments" | "estimatedTokens" | "diff" | "previous"
> & { messages: readonly SourcedMessage[] };

export interface PreviousTurn {
  origin: TurnOrigin;
  callId: string | null;
  entryId: string | null;
  refs: readonly MessageRef[];
}

const TOKEN_MEMO_MAX = 100_000;
const tokenMemo = new Map<string, number>();

/** estimateTokens of a message by its content hash: a content's estimate never changes. */
function tokensOf(m: SourcedMessage): number {
  let tokens = tokenMemo.get(m.hash);
  if (tokens === undefined) {
    tokens = estimateTokens(m.message);
    if (tokenMemo.size >= TOKEN_MEMO_MAX) tokenMemo.clear();
    tokenMemo.set(m.hash, tokens);
  }
  return tokens;
}

export function toMessageRefs(messages: readonly SourcedMessage[]): MessageRef[] {
  return messages.map((m) => ({
    hash: m.hash,
    sourceEntryId: m.sourceEntryId,
    source: m.source,
    role: m.message.role,
    tokens: m.placeholder ? 0 : tokensOf(m),
  }));
}

/** What buildTurnView reads of the session: entries by id and their file-order positions. */
export interface EntryOrder {
  byId: { get(id: string): SessionEntry | undefined };
  position(id: string): number | undefined;
}

function orderOf(entries: readonly SessionEntry[]): EntryOrder {
  const positions = new Map<string, number>();
  const byId = new Map<string, SessionEntry>();
  entries.forEach((e, i) => {
    positions.set(e.id, i);
    byId.set(e.id, e);
  });
  return { byId, position: (id) => positions.get(id) };
}

/** `session`: the entries, or an EntryOrder over them kept by the caller (session-index.ts). */
export function buildTurnView(input: TurnViewInput, session: readonly SessionEntry[] | EntryOrder, previous?: PreviousTurn | null): TurnView {
  const { byId, position } = Array.isArray(session) ? orderOf(session) : (session as EntryOrder);

  const refs = toMessageRefs(input.messages);
  const summary = input.messages.find((m) => m.source === "compaction" && m.sourceEntryId !== null);
  const compactionEntry = summary?.sourceEntryId ? byId.get(summary.sourceEntryId) : undefined;
  const compaction =
    compactionEntry?.type === "compaction"
      ? { entryId: compactionEntry.id, firstKeptEntryId: compactionEntry.firstKeptEntryId }
      : null;
  const compactionOrder = compaction ? (position(compaction.entryId) ?? -1) : -1;

  const { kinds, segments, totalTokens } = classify(refs, {
    system: input.system,
    tools: input.tools,
    compacted: compaction !== null,
  });

  let seenSummary = false;
  let firstKeptDone = false;
  const messages: InspectedMessage[] = input.messages.map((m, index) => {
    const ref = refs[index]!;
    if (m === summary) seenSummary = true;
    const sourceOrder = m.sourceEntryId ? position(m.sourceEntryId) : undefined;
    const kept =
      seenSummary && m !== summary && m.source !== "compaction" && sourceOrder !== undefined && sourceOrder < compactionOrder;
    const firstKept = kept && !firstKeptDone;
    if (firstKept) firstKeptDone = true;
    // Field by field, not `{ ...ref, … }`: V8 defines the fields that follow a spread one by one
    // (~5 µs a message here), which made this loop most of a long turn's view.
    return {
      hash: ref.hash,
      sourceEntryId: ref.sourceEntryId,
      source: ref.source,
      role: ref.role,
      tokens: ref.tokens,
      index,
      message: m.message,
      kind: kinds[index]!,
      kept,
      firstKept,
      placeholder: m.placeholder === true,
    };
  });

  return {
    ...input,
    messages,
    messageCount: messages.length,
    compaction,
    segments,
    estimatedTokens: totalTokens,
    previous: previous ? { origin: previous.origin, callId: previous.callId, entryId: previous.entryId } : null,
    diff: previous ? boundDiff(diffCalls(previous.refs, refs)) : null,
  };
}
