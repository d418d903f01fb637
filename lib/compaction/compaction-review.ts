/**
 * What the inspector shows beside a compaction (docs/engine.md "Arbor extensions around compaction"): the compaction and its sibling
 * compactions (same parent: the other summaries of the same span, "Compact again with…"), each
 * with its summary, token counts and fact check, and whether it can be undone now.
 * Pure: no network, disk or database access; reads a SessionTree positioned on the stored leaf.
 */
import { type CompactionUndo, planCompactionUndo } from "@/lib/compaction/compaction-undo";
import { type FactCheck, factCheckCompaction } from "@/lib/compaction/fact-check";
import { estimateTokens } from "@/lib/compaction/tokens";
import type { SessionTree } from "@/lib/session/tree/tree";
import type { CompactionEntry, SessionEntry } from "@/lib/session/types";

export interface CompactionCard {
  id: string;
  parentId: string | null;
  timestamp: string;
  firstKeptEntryId: string;
  summary: string;
  shortSummary?: string;
  tokensBefore: number;
  /** chars/4 estimate of the summary (session-engine.md §4), what it costs in every later context. */
  summaryTokens: number;
  /** The focus it was written with, when Arbor recorded one (details.arborFocus). */
  focus?: string;
  /** The model and the replacement prompt "Compact again with…" used (details.arborModel / arborPrompt). */
  model?: string;
  prompt?: string;
  /** Pinned entries it carries verbatim after its summary (session-engine.md §19). */
  pinnedEntryIds?: string[];
  fromExtension: boolean;
  /** On the path from the root to the current leaf. */
  active: boolean;
  check: FactCheck;
}

export interface CompactionReview {
  leafId: string | null;
  compaction: CompactionCard;
  /** Every compaction with the same parent, this one included, oldest first. */
  alternatives: CompactionCard[];
  undo: CompactionUndo;
}

function detail(details: unknown, key: "arborFocus" | "arborModel" | "arborPrompt"): string | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const value = (details as Record<string, unknown>)[key];
  return typeof value === "string" && value ? value : undefined;
}

function card(tree: SessionTree, entry: CompactionEntry, active: ReadonlySet<string>): CompactionCard {
  const cwd = tree.getHeader().cwd;
  const check = factCheckCompaction(tree.getBranch(entry.id), entry.id, { cwd })!;
  const out: CompactionCard = {
    id: entry.id,
    parentId: entry.parentId,
    timestamp: entry.timestamp,
    firstKeptEntryId: entry.firstKeptEntryId,
    summary: entry.summary,
    tokensBefore: entry.tokensBefore,
    summaryTokens: estimateTokens({ role: "compactionSummary", summary: entry.summary, tokensBefore: 0, timestamp: 0 }),
    fromExtension: entry.fromExtension === true || entry.fromHook === true,
    active: active.has(entry.id),
    check,
  };
  if (entry.shortSummary) out.shortSummary = entry.shortSummary;
  const focus = detail(entry.details, "arborFocus");
  if (focus) out.focus = focus;
  const model = detail(entry.details, "arborModel");
  if (model) out.model = model;
  const prompt = detail(entry.details, "arborPrompt");
  if (prompt) out.prompt = prompt;
  if (Array.isArray(entry.pinnedEntryIds) && entry.pinnedEntryIds.length) out.pinnedEntryIds = entry.pinnedEntryIds;
  return out;
}

/** Undefined when `compactionId` is not a compaction of the tree. */
export function reviewCompaction(tree: SessionTree, compactionId: string): CompactionReview | undefined {
  const entry = tree.getEntry(compactionId);
  if (entry?.type !== "compaction") return undefined;
  const path = tree.getBranch();
  const active = new Set(path.map((e) => e.id));
  const siblings = entry.parentId === null ? tree.getEntries().filter((e) => e.parentId === null) : tree.getChildren(entry.parentId);
  const alternatives = siblings
    .filter((e): e is CompactionEntry & SessionEntry => e.type === "compaction")
    .map((e) => card(tree, e, active));
  return {
    leafId: tree.getLeafId(),
    compaction: alternatives.find((c) => c.id === compactionId) ?? card(tree, entry, active),
    alternatives,
    undo: planCompactionUndo(entry, path),
  };
}
