/**
 * Whether planPrune (session-engine.md §8) would prune a branch, decided from running sums that
 * grow with the branch instead of a walk over all of it. A chat checks before every prompt and
 * after every reply (§13.2), and almost always finds nothing to prune; on a branch of 10k–100k
 * entries that walk was the largest part of a turn that scaled with the session.
 *
 * Why sums suffice: walking newest → oldest, result j is a candidate exactly when it is neither
 * pruned nor of a protected tool and the tokens of all newer results reach `protectTokens`.
 * With prefix sums oldest-first (P[k] = tokens of results 0..k-1, T = P[m]) that is
 * P[j+1] ≤ T − protectTokens; P only grows, so the candidates are the eligible results among the
 * oldest b, where b is found by binary search, and their savings are a prefix sum too.
 *
 * Contract:
 * - `extendLedger` covers a branch (root first); given the ledger of an earlier branch of the
 *   same session it only reads the new entries when the new branch continues the old one (the
 *   same entry id at the old end: an id fixes its whole path to the root), and reads nothing
 *   when the new branch ends on one of the old one's last RECENT entries (the leaf moved back:
 *   a retry, a branch from a recent message; the sums are cut there). Copies of the same
 *   entries (the read model's committed copies) count as the same. The caller must not reuse a
 *   ledger across a change of entry content (a prune, an undo; tree.ts's content generation
 *   tells when entries were replaced).
 * - `ledgerWouldPrune(l, config)` equals `planPrune(branch, config).candidates.length > 0` for
 *   the config the ledger was built with (its `protectedTools`); proven by prune-ledger.test.ts.
 * - `tokensOf` must equal estimateTokens, as for planPrune.
 * Pure: no I/O.
 */
import { estimateTextTokens, estimateTokens } from "@/lib/compaction/tokens";
import { type PruneConfig, pruneNotice } from "@/lib/compaction/pruning";
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";

export interface PruneLedger {
  /** Branch entries covered. */
  readonly length: number;
  /** The id of the branch's entry at `length - 1` (what a longer branch must still hold there). */
  readonly lastId: string | undefined;
  /** The protected tools it was built for. */
  readonly protectedTools: readonly string[];
  /** Tool results covered. The arrays below may run longer (a later ledger's); read up to here. */
  readonly results: number;
  /** tokens[k] = tokens of the branch's first k tool results (tokens[0] = 0). */
  readonly tokens: number[];
  /** savings[k] = what pruning the eligible ones among the first k results would save. */
  readonly savings: number[];
  /** eligible[k] = how many of the first k results are neither pruned nor protected. */
  readonly eligible: number[];
  /** The ids of the branch's last (up to RECENT) entries, and how many results end at each. */
  readonly recent: { readonly ids: readonly string[]; readonly results: readonly number[] };
}

/** How far back from a ledger's end a shorter branch may end and still reuse its sums. */
const RECENT = 256;

/** The ledger of `previous`'s branch cut to its first `length` entries, when `branch` (that long) is that prefix. */
function cutBack(previous: PruneLedger, branch: readonly SessionEntry[]): PruneLedger | undefined {
  const { ids, results } = previous.recent;
  const at = ids.length - (previous.length - branch.length);
  if (branch.length === 0 || at < 1 || ids[at - 1] !== branch[branch.length - 1]!.id) return undefined;
  return {
    ...previous,
    length: branch.length,
    lastId: ids[at - 1],
    results: results[at - 1]!,
    recent: { ids: ids.slice(0, at), results: results.slice(0, at) },
  };
}

/** The ledger of `branch`, reusing `previous` when `branch` continues the branch it covered. */
export function extendLedger(
  branch: readonly SessionEntry[],
  protectedTools: readonly string[],
  tokensOf: (message: ToolResultMessage) => number = estimateTokens,
  previous?: PruneLedger,
): PruneLedger {
  const continues =
    previous !== undefined &&
    previous.protectedTools === protectedTools &&
    previous.length <= branch.length &&
    (previous.length === 0 || branch[previous.length - 1]?.id === previous.lastId);
  if (continues && previous.length === branch.length) return previous;
  if (!continues && previous !== undefined && previous.protectedTools === protectedTools && branch.length < previous.length) {
    const cut = cutBack(previous, branch);
    if (cut) return cut;
  }
  // A continued ledger's arrays are extended in place while no later ledger has extended them
  // (the earlier ledger reads only its own `results`, so it stays valid); otherwise they are copied.
  let tokens = [0];
  let savings = [0];
  let eligible = [0];
  if (continues) {
    const own = previous.results + 1;
    const shared = previous.tokens.length === own;
    tokens = shared ? previous.tokens : previous.tokens.slice(0, own);
    savings = shared ? previous.savings : previous.savings.slice(0, own);
    eligible = shared ? previous.eligible : previous.eligible.slice(0, own);
  }
  const from = continues ? previous.length : 0;
  // The recent window: the previous ledger's, then the entries read here (only the last RECENT
  // of them are kept), each with the count of results up to and including it.
  let recentIds = continues ? previous.recent.ids.slice() : [];
  let recentResults = continues ? previous.recent.results.slice() : [];
  const windowFrom = branch.length - RECENT;
  const isProtected = new Set(protectedTools);
  for (let i = from; i < branch.length; i++) {
    const entry = branch[i];
    if (entry?.type === "message" && entry.message.role === "toolResult") {
      const message = entry.message;
      const t = tokensOf(message);
      const canPrune = message.prunedAt === undefined && !isProtected.has(message.toolName);
      const k = tokens.length - 1;
      tokens.push(tokens[k]! + t);
      savings.push(savings[k]! + (canPrune ? Math.max(0, t - estimateTextTokens(pruneNotice(t))) : 0));
      eligible.push(eligible[k]! + (canPrune ? 1 : 0));
    }
    if (i >= windowFrom && entry) {
      recentIds.push(entry.id);
      recentResults.push(tokens.length - 1);
    }
  }
  if (recentIds.length > RECENT) {
    recentIds = recentIds.slice(-RECENT);
    recentResults = recentResults.slice(-RECENT);
  }
  const recent = { ids: recentIds, results: recentResults };
  return { length: branch.length, lastId: branch.at(-1)?.id, protectedTools, results: tokens.length - 1, tokens, savings, eligible, recent };
}

/** planPrune's decision (would it rewrite anything?) from the ledger, in O(log n). */
export function ledgerWouldPrune(ledger: PruneLedger, config: Pick<PruneConfig, "protectTokens" | "minimumSavings">): boolean {
  const { tokens, savings, eligible, results } = ledger;
  const limit = tokens[results]! - config.protectTokens;
  // b = how many of the oldest results have at least protectTokens of newer output: the largest
  // k ≤ results with tokens[k] ≤ limit (tokens[k] sums result k-1 and all older ones).
  let lo = 0;
  let hi = results;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tokens[mid]! <= limit) lo = mid;
    else hi = mid - 1;
  }
  return eligible[lo]! > 0 && savings[lo]! >= config.minimumSavings;
}
