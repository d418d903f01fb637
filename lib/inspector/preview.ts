/**
 * previewNextTurn: what the model will be sent if the user sends a message now.
 * Pure: no network, disk or database access. Works on a copy of the path whose tool-result
 * entries and messages are copied (the only objects pruning mutates in place, session-engine.md §8), so the
 * caller's entries are never changed; copying only those keeps a long path cheap.
 *
 * It replays the pre-prompt check (session-engine.md §13.1, §13.2; lib/agent/compaction-check.ts), which runs
 * only when the working context has an assistant message:
 * 1. compaction disabled → nothing happens;
 * 2. prune the branch's tool outputs in memory (session-engine.md §8);
 * 4–7. overflow: the last assistant is a context overflow (session-engine.md §14) from the current model and
 *    not from before the latest compaction → an "overflow" compaction, and that error message is
 *    dropped from the working context;
 * 8. any other error → no threshold check;
 * 9. threshold: calculateContextTokens(last usage) − tokensSaved > window − reserve → compaction.
 * A compaction is then shown by its plan: prepareCompaction's firstKeptEntryId, applied with a
 * placeholder summary (the real one is written by the model). The user's message is the trailing
 * placeholder. Decision (as the agent does): a model with an unknown window (≤ 0) never reaches
 * the threshold.
 */
import { sourcedContext } from "@/lib/inspector/sources";
import type { PendingEffects, SourcedMessage } from "@/lib/types/inspector";
import { contentHash } from "@/lib/content-address";
import { prepareCompaction } from "@/lib/compaction/prepare";
import { applyPrunePlan, DEFAULT_PRUNE_CONFIG, type PrunePlan, planPrune } from "@/lib/compaction/pruning";
import type { CompactionSettings } from "@/lib/compaction/summarize-types";
import { calculateContextTokens, shouldCompact, toolResultTokens } from "@/lib/compaction/tokens";
import { isContextOverflow } from "@/lib/compaction/overflow";
import { pathToRoot } from "@/lib/session/tree/branch-path";
import { pinnedIds } from "@/lib/session/pins";
import type { AssistantMessage, CompactionEntry, PromptSet, SessionEntry, ToolResultMessage, UserMessage } from "@/lib/session/types";

export const NEXT_MESSAGE_PLACEHOLDER = "(the message you send next)";
export const PENDING_SUMMARY_PLACEHOLDER = "(the compaction summary, written by the model before your message is sent)";
/** Id of the not-yet-written compaction entry in a preview. */
export const PENDING_COMPACTION_ID = "pending-compaction";

export interface NextTurnPreview {
  leafId: string | null;
  /** What will be sent, in order; the last one is the placeholder for the user's message. */
  messages: SourcedMessage[];
  pending: PendingEffects;
  /** The compaction entry the plan would append (placeholder summary), when one would run. */
  pendingCompaction: (CompactionEntry & SessionEntry) | null;
  /** The working context's last assistant entry (the turn the preview follows). */
  lastAssistantEntryId: string | null;
}

function lastAssistantOf(path: readonly SessionEntry[], messages: readonly SourcedMessage[]): { id: string; message: AssistantMessage } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.message.role !== "assistant" || !m.sourceEntryId) continue;
    const entry = path.find((e) => e.id === m.sourceEntryId);
    if (entry?.type === "message" && entry.message.role === "assistant") return { id: entry.id, message: entry.message };
  }
  return null;
}

function placeholderMessage(now: number): SourcedMessage {
  const message: UserMessage = { role: "user", content: [{ type: "text", text: NEXT_MESSAGE_PLACEHOLDER }], timestamp: now };
  return { message, hash: contentHash(message), sourceEntryId: null, source: "none", placeholder: true };
}

/**
 * The pruned copy of each tool result a preview rewrites, kept per original message: a preview
 * is built after every turn, and a long session that never pruned has tens of thousands of
 * candidates (37k at 100k entries), each of which would otherwise be copied, converted and
 * hashed afresh every time. A kept copy is used while its original still has the same content
 * (pruning elsewhere replaces `content`) and the same token count, and, when the caller sets the
 * clock, the same `prunedAt`; otherwise its `prunedAt` is that of the first preview that pruned
 * it (a guess of "now" either way). Copies are never changed once kept, so the per-object
 * conversion memo of sources.ts serves them too.
 */
const keptCopies = new WeakMap<ToolResultMessage, { content: ToolResultMessage["content"]; tokens: number; copy: ToolResultMessage }>();

/** A candidate that got a fresh, still unpruned copy, and the original it copies. */
interface FreshCopy {
  candidate: PrunePlan["candidates"][number];
  original: ToolResultMessage;
}

/**
 * Puts in `path` a pruned copy for every candidate: a kept one where it fits, else a fresh
 * unpruned copy, which is returned for the caller to prune (with applyPrunePlan) and keep.
 */
function prunedCopies(path: SessionEntry[], plan: PrunePlan, at: number | undefined): FreshCopy[] {
  const fresh: FreshCopy[] = [];
  for (const candidate of plan.candidates) {
    const e = path[candidate.index];
    if (e?.type !== "message" || e.message.role !== "toolResult") continue;
    const original = e.message;
    const kept = keptCopies.get(original);
    const fits = kept && kept.content === original.content && kept.tokens === candidate.tokens && (at === undefined || kept.copy.prunedAt === at);
    const message = fits ? kept.copy : { ...original };
    if (!fits) fresh.push({ candidate, original });
    path[candidate.index] = { ...e, message } as SessionEntry;
  }
  return fresh;
}

/** Keeps the fresh copies once pruned (their entries in `path` now hold the pruned messages). */
function keepPrunedCopies(path: readonly SessionEntry[], fresh: readonly FreshCopy[]): void {
  for (const { candidate, original } of fresh) {
    const e = path[candidate.index];
    if (e?.type === "message" && e.message.role === "toolResult") keptCopies.set(original, { content: original.content, tokens: candidate.tokens, copy: e.message });
  }
}

export function previewNextTurn(
  entries: readonly SessionEntry[],
  leafId: string | null,
  settings: CompactionSettings,
  prompts: PromptSet,
  contextWindow: number,
  opts: { model?: { provider: string; id: string }; now?: number; byId?: ReadonlyMap<string, SessionEntry> } = {},
): NextTurnPreview {
  const now = opts.now ?? Date.now();
  const byId = opts.byId ?? new Map(entries.map((e) => [e.id, e]));
  const leaf = leafId === null ? undefined : byId.get(leafId);
  // Pruning rewrites results in place; the entries are shared (and their messages cached per
  // object downstream), so step 2 puts pruned copies of just the results it rewrites in the path.
  const path: SessionEntry[] = leaf ? pathToRoot(leaf, byId) : [];
  const pending: PendingEffects = { pruning: null, compaction: null };
  const before = sourcedContext(path, prompts);
  const last = lastAssistantOf(path, before);
  const result = (messages: SourcedMessage[], pendingCompaction: NextTurnPreview["pendingCompaction"] = null): NextTurnPreview => ({
    leafId: leaf?.id ?? null,
    messages: [...messages, placeholderMessage(now)],
    pending,
    pendingCompaction,
    lastAssistantEntryId: last?.id ?? null,
  });
  // The check runs only when the working context has an assistant message (session-engine.md §13.1).
  if (!last || !settings.enabled) return result(before);

  // Step 2: prune copies; the context then carries the notices.
  const plan = planPrune(path, DEFAULT_PRUNE_CONFIG, toolResultTokens);
  if (plan.candidates.length > 0) {
    const fresh = prunedCopies(path, plan, opts.now === undefined ? undefined : now);
    applyPrunePlan(path, { candidates: fresh.map((f) => f.candidate), tokensSaved: plan.tokensSaved }, now);
    keepPrunedCopies(path, fresh);
    // applyPrunePlan reports in entry order; the plan lists newest first.
    const entryIds = plan.candidates.map(({ index }) => path[index]!.id).reverse();
    pending.pruning = { count: entryIds.length, tokensSaved: plan.tokensSaved, entryIds };
  }
  const msg = last.message;
  const model = opts.model ?? { provider: msg.provider, id: msg.model };
  const sameModel = msg.provider === model.provider && msg.model === model.id;
  const latest = path.findLast((e): e is CompactionEntry & SessionEntry => e.type === "compaction");
  const fromBeforeCompaction = latest !== undefined && msg.timestamp < Date.parse(latest.timestamp);

  let reason: "threshold" | "overflow" | null = null;
  let contextTokens = msg.usage ? calculateContextTokens(msg.usage) : 0;
  if (pending.pruning) contextTokens = Math.max(0, contextTokens - pending.pruning.tokensSaved);
  if (sameModel && !fromBeforeCompaction && isContextOverflow(msg, contextWindow)) reason = "overflow";
  else if (msg.stopReason !== "error" && contextWindow > 0 && shouldCompact(contextTokens, contextWindow, settings)) reason = "threshold";

  // Overflow: the error message is dropped from the working context (session-engine.md §13.2 step 7.3).
  const dropError = (list: SourcedMessage[]) => (reason === "overflow" ? list.filter((m) => m.sourceEntryId !== last.id) : list);
  // Pins anywhere in the session count (session-engine.md §19), as for the compaction itself.
  const prep = reason ? prepareCompaction(path, settings, { pinnedIds: pinnedIds(entries) }) : undefined;
  if (!reason || !prep) return result(dropError(pending.pruning ? sourcedContext(path, prompts) : before));
  const compaction = {
    type: "compaction",
    id: PENDING_COMPACTION_ID,
    parentId: path.at(-1)?.id ?? null,
    timestamp: new Date(now).toISOString(),
    summary: PENDING_SUMMARY_PLACEHOLDER,
    firstKeptEntryId: prep.firstKeptEntryId,
    tokensBefore: prep.tokensBefore,
  } as CompactionEntry & SessionEntry;
  pending.compaction = {
    reason,
    contextTokens,
    threshold: reason === "threshold" ? contextWindow - settings.reserveTokens : null,
    firstKeptEntryId: prep.firstKeptEntryId,
    summarizedCount: prep.messagesToSummarize.length + prep.turnPrefixMessages.length,
  };
  const after = dropError(sourcedContext([...path, compaction], prompts)).map((m) =>
    m.sourceEntryId === PENDING_COMPACTION_ID ? { ...m, placeholder: true } : m,
  );
  return result(after, compaction);
}
