/**
 * Types of the session tree canvas (conventions rule 8: a typed node union).
 * Pure: type declarations and tiny id helpers only; no React, no DOM.
 *
 * React Flow node ids are entry ids, except:
 * - a folded run of tool steps: `fold:<first entry id>` (see fold.ts);
 * - a summarised-region band drawn behind the nodes: `band:<compaction id>:<n>`;
 * - a collapsed turn of the overview (semantic zoom, turns.ts): `turn:<first entry id>`;
 * - a span of turns in a long session's overview (spans.ts): `span:<first entry id>`;
 * - the session start drawn above several roots: `start:`.
 */
import type { Edge, Node } from "@xyflow/react";

/** The small role mark every entry node carries, always shown as a word (ui.md). */
export type RoleMark = "user" | "assistant" | "tool" | "summary" | "setting" | "custom" | "other";

/** Actions of the entry menu ("⋯" button or right-click), passed to `onContextAction`. */
export type ContextAction =
  | "inspect"
  /** "Continue from here": the dialog, then the leaf moves (session-engine.md §11.4, §16.5). */
  | "continue"
  /** Show a collapsed overview turn as its entries. */
  | "expand-turn"
  | "label"
  | "edit-resend"
  | "fork"
  | "copy-link"
  // Pins (session-engine.md §19) and the compaction items (docs/ui.md "The session workspace").
  | "pin"
  | "unpin"
  | "compact-again"
  | "compare-compactions"
  | "undo-compaction"
  | "redo-compaction"
  /** Archive the branch the entry lies in (off the current path) / restore the archived one (§19.4). */
  | "archive-branch"
  | "restore-branch";

/** Fields every node of a session entry (or folded run of entries) carries. */
export type CommonData = {
  /** The entry id (for a fold: its first entry). */
  entryId: string;
  /** Row text of session-engine.md §16.2, without the `[label] ` prefix. */
  text: string;
  /** A multi-line user message's first line (the skeleton's `firstLine`): a turn's name. */
  firstLine?: string;
  /** Resolved label of the entry (§1.6), if any. */
  label?: string;
  /** Estimated tokens (session-engine.md §4 `estimateTokens`; summaries: summary chars / 4). */
  tokens: number;
  /** When the entry was written (epoch ms; a turn: its first entry; NaN when unparsable). */
  time: number;
  /** On the path from the root to the current leaf (§16.1). */
  isActive: boolean;
  /**
   * Shows "you are here": the current leaf, or the nearest visible entry of its path when the
   * filter or search hides the leaf (to-flow.ts `hereId`).
   */
  isLeaf: boolean;
  /** Set when the leaf itself is hidden: its row text ("[model: …]", "[pin: …]"). */
  hiddenLeaf?: string;
  /** Named by some compaction's `firstKeptEntryId` (or the first visible entry after it). */
  isFirstKept: boolean;
  /** Ids of the compactions whose summarised region contains this entry. */
  summarisedBy: string[];
  /** A search is active and this entry matches it (§16.3). */
  matchesSearch: boolean;
  /** Pinned (session-engine.md §19): kept verbatim through every compaction. */
  pinned?: boolean;
  /** Inside an archived branch (§19.4), drawn because "Archived" is on. */
  archived?: boolean;
};

export type EntryData = CommonData & {
  /** `entry.type` (message, custom_message, model_change, …). */
  entryType: string;
  role: RoleMark;
  /** A user message: the menu offers "Edit and resend". */
  isUserMessage: boolean;
};

export type CompactionData = CommonData & {
  tokensBefore: number;
  /** `shortSummary`, else the first line of the summary (hover card). */
  shortSummary: string;
  firstKeptEntryId: string;
};

export type BranchSummaryData = CommonData & {
  /** The first lines of the summary (hover card). */
  preview: string;
};

export type FoldData = CommonData & {
  /** Entry ids of the run, top to bottom. */
  entryIds: string[];
  count: number;
};

export type TurnData = CommonData & {
  /** Every entry of the turn, top to bottom (folded runs included). */
  entryIds: string[];
  /** The prompt's first line; for a continuation (a turn that starts mid-turn) the first entry's text. */
  prompt: string;
  /** Starts with a user message (false: the turn continues after a branch point or a compaction). */
  startsWithUser: boolean;
  /** Visible entries after the prompt (replies, tool steps, settings). */
  steps: number;
  /** Distinct paths written or edited. */
  files: string[];
  /** Assistant messages that ended in an error. */
  errors: number;
  /** Failed tool calls (an isError result, a non-zero exit). */
  failedTools: number;
  /** Its number on its path: user prompts counted from the root ("turn 12"; a continuation keeps the number). */
  ordinal: number;
  /** Epoch ms of its first and last entry (absent when the timestamps are unparsable). */
  startTime?: number;
  endTime?: number;
  /** Set when the turn starts GAP_MS or more after the entry before it: the pause in ms. */
  gapBefore?: number;
  /** Its tokens relative to the session's largest turn, square-rooted (0–1): the size bar. */
  sizeShare: number;
  /** Every label inside the turn. */
  labels: string[];
  /** The turn's last entry has several visible children. */
  isBranchPoint: boolean;
};

/** A run of consecutive turns drawn as one card in a long session's overview (spans.ts). */
export type SpanData = CommonData & {
  /** Every entry of its turns, top to bottom. */
  entryIds: string[];
  turns: number;
  firstOrdinal: number;
  lastOrdinal: number;
  /** The first and the last turn's prompts. */
  prompt: string;
  lastPrompt: string;
  errors: number;
  failedTools: number;
  /** Distinct paths written or edited. */
  files: string[];
  startTime?: number;
  endTime?: number;
  /** The pause before its first turn (TurnData.gapBefore). */
  gapBefore?: number;
  /** Its tokens relative to the largest span, square-rooted (0–1). */
  sizeShare: number;
  /** Its last turn branches. */
  isBranchPoint: boolean;
};

export type BandData = {
  compactionId: string;
  /** Row text of the compaction, for screen readers. */
  compactionText: string;
};

/** The session start drawn above several roots (a root branch summary, orphans): their branch point. */
export type StartData = {
  roots: number;
};

export type EntryNodeType = Node<EntryData, "entry">;
export type CompactionNodeType = Node<CompactionData, "compaction">;
export type BranchSummaryNodeType = Node<BranchSummaryData, "branchSummary">;
export type FoldNodeType = Node<FoldData, "fold">;
export type BandNodeType = Node<BandData, "band">;
export type TurnNodeType = Node<TurnData, "turn">;
export type SpanNodeType = Node<SpanData, "span">;
export type StartNodeType = Node<StartData, "start">;

/** A node standing for one entry or one folded run. */
export type TreeNode = EntryNodeType | CompactionNodeType | BranchSummaryNodeType | FoldNodeType | TurnNodeType | SpanNodeType;
/** Everything the canvas renders: tree nodes plus the bands behind them and the session start. */
export type CanvasNode = TreeNode | BandNodeType | StartNodeType;

export type TreeEdgeData = {
  /**
   * `tree`: parent → child (nearest visible ancestor, §16.3); `firstKept`: compaction → kept entry;
   * `start`: the drawn session start → a root (only with several roots; not a tree edge).
   */
  kind: "tree" | "firstKept" | "start";
  /** Both ends on the root → leaf path. */
  isActive: boolean;
  /** A tree edge into the next slab of a wrapped overview (wrap-layout.ts): where it runs. */
  route?: { belowY: number; laneX: number; aboveY: number };
};
export type TreeEdge = Edge<TreeEdgeData>;

const FOLD_PREFIX = "fold:";
const TURN_PREFIX = "turn:";
const SPAN_PREFIX = "span:";

export function spanId(firstEntryId: string): string {
  return SPAN_PREFIX + firstEntryId;
}

export function isSpanId(id: string): boolean {
  return id.startsWith(SPAN_PREFIX);
}

/** A collapsed turn or span: a node standing for several entries that expands on demand. */
export function isGroupId(id: string): boolean {
  return id.startsWith(TURN_PREFIX) || id.startsWith(SPAN_PREFIX);
}

export function turnId(firstEntryId: string): string {
  return TURN_PREFIX + firstEntryId;
}

export function isTurnId(id: string): boolean {
  return id.startsWith(TURN_PREFIX);
}

export function foldId(firstEntryId: string): string {
  return FOLD_PREFIX + firstEntryId;
}

export function isFoldId(id: string): boolean {
  return id.startsWith(FOLD_PREFIX);
}

/** The entry a node id stands for: the id itself, or a fold's or a turn's first entry. */
export function entryIdOf(nodeId: string): string {
  if (isFoldId(nodeId)) return nodeId.slice(FOLD_PREFIX.length);
  if (isSpanId(nodeId)) return nodeId.slice(SPAN_PREFIX.length);
  return isTurnId(nodeId) ? nodeId.slice(TURN_PREFIX.length) : nodeId;
}
