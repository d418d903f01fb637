/**
 * Fact check of a compaction (an Arbor extension, read-only: it never changes what a
 * compaction does).
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - The summarised span of a compaction C on its path is the entries after the previous
 *   compaction on the path (or the root) up to, not including, the entry named by
 *   `C.firstKeptEntryId` — exactly what session-engine.md §5.4 summarised (history plus a split turn's
 *   prefix), less the pinned entries it carries verbatim (§19). When that entry is not on the path before C (a hook's compaction), the span runs up
 *   to C.
 * - Each extracted fact (fact-extract.ts) is `carried` when the summary contains it after
 *   normalisation (fact-normalize.ts): files, identifiers, URLs and numbers as whole tokens;
 *   instructions, TODO lines and errors by their words (at least COVERAGE of their content words,
 *   or the whole line verbatim).
 * - A file carried only by the `<read-files>` / `<modified-files>` block (session-engine.md §10), not by the
 *   prose, has `inFileTagsOnly`.
 */
import { contentWords, containsToken, normalizeText, wordCoverage } from "@/lib/compaction/fact-normalize";
import { type Fact, FACT_KIND_LABELS, FACT_KINDS, type FactKind, extractFacts } from "@/lib/compaction/fact-extract";
import type { CompactionEntry, SessionEntry } from "@/lib/session/types";

export type { Fact, FactKind } from "@/lib/compaction/fact-extract";
export { FACT_KIND_LABELS, FACT_KINDS } from "@/lib/compaction/fact-extract";

/** Share of content words a sentence-like fact needs in the summary to count as carried. */
export const COVERAGE = 0.6;

export interface CheckedFact extends Fact {
  carried: boolean;
  inFileTagsOnly?: boolean;
}

export interface KindScore {
  kind: FactKind;
  label: string;
  carried: number;
  total: number;
}

export interface FactCheck {
  compactionId: string;
  firstKeptEntryId: string;
  /** How many entries the summary stands for. */
  spanEntries: number;
  facts: CheckedFact[];
  carried: number;
  total: number;
  /** Kinds that have facts, in FACT_KINDS order. */
  byKind: KindScore[];
}

const FILE_TAGS = /<(read-files|modified-files)>[\s\S]*?<\/\1>/g;
const SENTENCE_KINDS: ReadonlySet<FactKind> = new Set(["instruction", "todo", "error"]);

/** The summarised span of the compaction at `compactionIndex` of the root-first `path`. */
export function summarizedSpan(path: readonly SessionEntry[], compactionIndex: number): SessionEntry[] {
  const c = path[compactionIndex];
  if (c?.type !== "compaction") return [];
  let start = 0;
  for (let i = compactionIndex - 1; i >= 0; i--) {
    if (path[i]?.type === "compaction") {
      start = i + 1;
      break;
    }
  }
  let end = compactionIndex;
  for (let i = start; i < compactionIndex; i++) {
    if (path[i]?.id === c.firstKeptEntryId) {
      end = i;
      break;
    }
  }
  // Pinned entries (session-engine.md §19) are carried verbatim after the summary, not summarised.
  const pinned = Array.isArray(c.pinnedEntryIds) ? new Set(c.pinnedEntryIds) : undefined;
  const span = path.slice(start, end);
  return pinned?.size ? span.filter((e) => !pinned.has(e.id)) : span;
}

function isCarried(fact: Fact, hay: string, words: ReadonlySet<string>): boolean {
  if (containsToken(hay, fact.key)) return true;
  if (fact.kind === "number") return containsToken(hay, fact.key.replace(" ", ""));
  if (SENTENCE_KINDS.has(fact.kind)) return wordCoverage(fact.key, words) >= COVERAGE;
  return false;
}

/** Marks each fact carried or dropped by `summary`. */
export function checkFacts(facts: readonly Fact[], summary: string, opts: { cwd?: string } = {}): CheckedFact[] {
  const full = normalizeText(summary, opts.cwd);
  const prose = normalizeText(summary.replace(FILE_TAGS, " "), opts.cwd);
  const fullWords = new Set(contentWords(full));
  return facts.map((f) => {
    const carried = isCarried(f, full, fullWords);
    if (carried && f.kind === "file" && !containsToken(prose, f.key)) return { ...f, carried, inFileTagsOnly: true };
    return { ...f, carried };
  });
}

export function scoreFacts(facts: readonly CheckedFact[]): Pick<FactCheck, "carried" | "total" | "byKind"> {
  const byKind: KindScore[] = [];
  for (const kind of FACT_KINDS) {
    const of = facts.filter((f) => f.kind === kind);
    if (of.length) byKind.push({ kind, label: FACT_KIND_LABELS[kind], carried: of.filter((f) => f.carried).length, total: of.length });
  }
  return { carried: facts.filter((f) => f.carried).length, total: facts.length, byKind };
}

/**
 * The fact check of compaction `compactionId`, on the path from the root to it (`path` must
 * contain it; anything after it is ignored). `summary` checks another text against the same
 * span (a candidate beside the stored one). Undefined when the id is not a compaction on `path`.
 */
export function factCheckCompaction(
  path: readonly SessionEntry[],
  compactionId: string,
  opts: { cwd?: string; summary?: string } = {},
): FactCheck | undefined {
  const index = path.findIndex((e) => e.id === compactionId);
  const entry = path[index];
  if (entry?.type !== "compaction") return undefined;
  const compaction = entry as CompactionEntry;
  const span = summarizedSpan(path, index);
  const facts = checkFacts(extractFacts(span, opts), opts.summary ?? compaction.summary, opts);
  return {
    compactionId,
    firstKeptEntryId: compaction.firstKeptEntryId,
    spanEntries: span.length,
    facts,
    ...scoreFacts(facts),
  };
}

/** "38 of 45 facts carried". */
export function scoreText(check: Pick<FactCheck, "carried" | "total">): string {
  return `${check.carried} of ${check.total} fact${check.total === 1 ? "" : "s"} carried`;
}
