/**
 * SessionTree: the in-memory session manager (session-engine.md §1.6).
 * The entries, their index and the reads are SessionTreeContent's (tree-content.ts); this class
 * is the writer. Pure: no network, disk or database access. Persistence is the caller's job:
 * subscribe with `onAppend` (every new entry, in order) and `onLeafChange`, or read
 * `getEntriesAppendedSince`.
 *
 * Contract:
 * - Entries are kept in append (file) order; the header is never a tree node.
 * - Leaf on load = the last entry in file order (null for an empty session). Every appender
 *   adds under the current leaf, moves the leaf to the new entry and returns its id; the full
 *   entry is then available from `getEntry(id)`.
 * - Indexing is O(n) on load (one pass) and O(1) per append; getBranch is O(path length).
 * - Clock and id generator are injectable for deterministic tests.
 * - Shared, already-committed state (lib/db/read-model): `addCommitted` indexes entries that
 *   already have ids (no listeners, leaf unchanged); `view(leafId)` is an O(1) read-only tree
 *   over the same entries and index with its own leaf (appenders and `addCommitted` throw);
 *   `fork()` is a writer's own tree over the same entry objects: its own entry list (a copy of
 *   the references) and an index layered over this one (O(1); tree-index.ts `layerIndex`), or
 *   with `{ flat: true }` an index of its own (O(n), for a tree that will itself be forked);
 *   `replaceEntries` swaps entry objects of the same ids (a prune rewrites copies, never the
 *   shared objects).
 */

import { type ForkedSession, forkPath } from "@/lib/session/fork";
import { generateEntryId, generateSessionId, type TakenIds } from "@/lib/session/file/ids";
import { SessionTreeContent } from "@/lib/session/tree/tree-content";
import { cloneIndex, hasChildren, indexEntry, layerIndex, type TreeIndex } from "@/lib/session/tree/tree-index";
import { pinEntryFields, pinRefusal } from "@/lib/session/pins";
import type { AgentMessage, CustomMessageEntry, KnownEntry, SessionEntry, SessionHeader, SummaryCall } from "@/lib/session/types";

export type { TreeNode } from "@/lib/session/tree/tree-build";

export interface SessionTreeOptions {
  /** Clock for entry timestamps; default `() => new Date()`. */
  now?: () => Date;
  /** Entry id generator; default `generateEntryId` (session-engine.md §1.6). */
  newId?: (taken: TakenIds) => string;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * What `appendEntry` takes: an entry without `id` and `parentId` (the tree assigns them);
 * `timestamp` is optional (default: the clock). Unknown entry types are allowed (session-engine.md §1.4).
 */
export type NewEntry =
  | (DistributiveOmit<KnownEntry, "id" | "parentId" | "timestamp"> & { timestamp?: string })
  | { type: string; timestamp?: string; [key: string]: unknown };

export type AppendListener = (entry: SessionEntry) => void;
export type LeafListener = (leafId: string | null) => void;

/** Roles built by buildSessionContext only; never stored in a message entry (session-engine.md §1.5). */
const IN_MEMORY_ROLES = new Set(["compactionSummary", "branchSummary"]);

/** Copies `fields` without keys whose value is undefined, so optional fields stay absent. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}

export class SessionTree extends SessionTreeContent {
  private readonly now: () => Date;
  private readonly newId: (taken: TakenIds) => string;
  private readonly appendListeners = new Set<AppendListener>();
  private readonly leafListeners = new Set<LeafListener>();
  /**
   * Ids an append must avoid: existing entries and dangling parent references, so a new entry
   * can never adopt a file's orphans by accident.
   */
  private readonly taken: TakenIds = {
    has: (id) => this.index.byId.has(id) || hasChildren(this.index, id),
  };

  /** `index` is for fork() only: an index of exactly `entries`, which the tree then owns. */
  constructor(header: SessionHeader, entries: readonly SessionEntry[], opts: SessionTreeOptions = {}, index?: TreeIndex) {
    super(header, entries, index);
    this.now = opts.now ?? (() => new Date());
    this.newId = opts.newId ?? ((taken) => generateEntryId(taken));
  }

  // ── Views and forks of the shared committed state ────────────────────────

  /**
   * A read-only tree over the same entries and index, positioned on `leafId` (not checked: an
   * unknown leaf reads as an empty branch, like getBranch), with `header` (default: this one).
   * O(1). Its appenders and `addCommitted` throw; its leaf moves are its own. Entries later
   * added to this tree show in it.
   */
  view(leafId: string | null, header: SessionHeader = this.header): SessionTree {
    const view = Object.create(SessionTree.prototype) as Record<string, unknown>;
    Object.assign(view, this, { header, leafId, readOnly: true, appendListeners: new Set(), leafListeners: new Set() });
    return view as unknown as SessionTree;
  }

  /**
   * A writable tree over the same entry objects, on the same leaf, whose appends, replacements
   * and label changes never reach this one. Its entry list is a copy of the references (the
   * entries later added here never show in it, nor in its branch or context); its index is
   * layered over this one's (O(1)), so lookups (getEntry, getChildren, labels) may also see
   * entries this tree gains later, as shared committed state does. `flat`: an index of its own
   * instead (O(n)), for a tree that will be a shared one itself (the read model's rewrite).
   */
  fork(opts: SessionTreeOptions & { flat?: boolean } = {}): SessionTree {
    const { flat, ...treeOpts } = opts;
    const tree = new SessionTree(this.header, this.entries, treeOpts, flat ? cloneIndex(this.index) : layerIndex(this.index));
    tree.memo = this.memo.rebase(tree.index, true);
    if (this.leafId === null) tree.resetLeaf();
    else if (tree.getEntry(this.leafId)) tree.branch(this.leafId);
    return tree;
  }

  // ── Listeners ────────────────────────────────────────────────────────────

  /** Called synchronously after each append, in order. Returns an unsubscribe function. */
  onAppend(listener: AppendListener): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** Called whenever the leaf changes (appends included). Returns an unsubscribe function. */
  onLeafChange(listener: LeafListener): () => void {
    this.leafListeners.add(listener);
    return () => this.leafListeners.delete(listener);
  }

  // ── Appends (session-engine.md §1.6) ──────────────────────────────────────────────────

  /**
   * Adds `fields` as a child of the current leaf with a fresh id and moves the leaf to it.
   * Returns the stored entry (the typed appenders return its id).
   */
  appendEntry(fields: NewEntry): SessionEntry {
    this.assertWritable();
    const { timestamp, ...rest } = fields;
    const entry = {
      ...rest,
      id: this.newId(this.taken),
      parentId: this.leafId,
      timestamp: timestamp ?? this.now().toISOString(),
    } as SessionEntry;
    indexEntry(this.index, entry);
    this.entries.push(entry);
    // The leaf moves before anyone is told, so listeners observe the finished state.
    this.leafId = entry.id;
    for (const listener of this.appendListeners) listener(entry);
    for (const listener of this.leafListeners) listener(entry.id);
    return entry;
  }

  /** Rejects the in-memory roles compactionSummary and branchSummary (session-engine.md §1.5). */
  appendMessage(message: AgentMessage): string {
    if (IN_MEMORY_ROLES.has(message.role)) {
      throw new Error(
        `appendMessage cannot store a "${message.role}" message: it is built by buildSessionContext (session-engine.md §1.5); append a compaction or branch_summary entry instead`,
      );
    }
    return this.appendEntry({ type: "message", message }).id;
  }

  appendThinkingLevelChange(thinkingLevel: string): string {
    return this.appendEntry({ type: "thinking_level_change", thinkingLevel }).id;
  }

  /** `model` is "provider/modelId"; an absent role means "default" (session-engine.md §1.4). */
  appendModelChange(model: string, role?: string): string {
    return this.appendEntry({ type: "model_change", ...defined({ model, role }) }).id;
  }

  appendCompaction(
    summary: string,
    shortSummary: string | undefined,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromExtension?: boolean,
    preserveData?: Record<string, unknown>,
    /** Arbor §19: set only when pinned entries are carried. */
    pinnedEntryIds?: string[],
    /** The summary calls' usage and model (§1.4), when they reported one. */
    call?: SummaryCall,
  ): string {
    return this.appendEntry({
      type: "compaction",
      ...defined({ summary, shortSummary, firstKeptEntryId, tokensBefore, details, fromExtension, preserveData }),
      ...(pinnedEntryIds?.length ? { pinnedEntryIds } : {}),
      ...(call ? defined({ usage: call.usage, provider: call.provider, model: call.model }) : {}),
    }).id;
  }

  appendCustomEntry(customType: string, data?: unknown): string {
    return this.appendEntry({ type: "custom", ...defined({ customType, data }) }).id;
  }

  appendCustomMessageEntry(
    customType: string,
    content: CustomMessageEntry["content"],
    display: boolean,
    details?: unknown,
  ): string {
    return this.appendEntry({ type: "custom_message", ...defined({ customType, content, display, details }) }).id;
  }

  /** `undefined` or "" clears the label; the label entry becomes the leaf (session-engine.md §1.6). */
  appendLabelChange(targetId: string, label: string | undefined): string {
    if (!this.index.byId.has(targetId)) throw new Error(`Entry ${targetId} not found`);
    return this.appendEntry({ type: "label", targetId, label }).id;
  }

  /** Pins (or unpins) an entry: a `custom` "arbor.pin" entry that becomes the leaf (session-engine.md §19). */
  appendPinChange(targetId: string, pinned: boolean): string {
    const target = this.index.byId.get(targetId);
    if (!target) throw new Error(`Entry ${targetId} not found`);
    const refusal = pinned ? pinRefusal(target) : undefined;
    if (refusal) throw new Error(refusal);
    return this.appendEntry(pinEntryFields(targetId, pinned)).id;
  }

  /** `mode` is "none" on exit (session-engine.md §1.4). */
  appendModeChange(mode: string, data?: Record<string, unknown>): string {
    return this.appendEntry({ type: "mode_change", ...defined({ mode, data }) }).id;
  }

  // ── Leaf moves (session-engine.md §1.6) ───────────────────────────────────────────────

  branch(id: string): void {
    if (!this.index.byId.has(id)) throw new Error(`Entry ${id} not found`);
    this.setLeaf(id);
  }

  /** The next append creates a new root. */
  resetLeaf(): void {
    this.setLeaf(null);
  }

  /** Moves the leaf to `fromId` and appends a branch_summary there; returns its id. */
  branchWithSummary(fromId: string | null, summary: string, details?: unknown, fromExtension?: boolean, call?: SummaryCall): string {
    if (fromId !== null && !this.index.byId.has(fromId)) throw new Error(`Entry ${fromId} not found`);
    this.setLeaf(fromId);
    return this.appendEntry({
      type: "branch_summary",
      ...defined({ fromId: fromId ?? "root", summary, details, fromExtension }),
      ...(call ? defined({ usage: call.usage, provider: call.provider, model: call.model }) : {}),
    }).id;
  }

  /**
   * The session a "Fork to new session" writes (session-engine.md §1.6 steps 1–5). This tree is unchanged.
   * `parentSession` defaults to this session's id.
   */
  createBranchedSession(
    leafId: string,
    opts: { newSessionId?: string; now?: Date; parentSession?: string } = {},
  ): ForkedSession {
    const path = this.getBranch(leafId);
    if (path.length === 0) throw new Error(`Entry ${leafId} not found`);
    return forkPath({
      path,
      labels: this.index.labels,
      sourceHeader: this.header,
      newSessionId: opts.newSessionId ?? generateSessionId(),
      now: opts.now ?? this.now(),
      parentSession: opts.parentSession ?? this.header.id,
      newId: this.newId,
    });
  }

  private setLeaf(id: string | null): void {
    if (id === this.leafId) return;
    this.leafId = id;
    for (const listener of this.leafListeners) listener(id);
  }
}
