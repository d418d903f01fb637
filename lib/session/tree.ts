/**
 * SessionTree: the in-memory session manager (spec §1.6).
 * Pure: no network, disk or database access. Persistence is the caller's job: subscribe with
 * `onAppend` (every new entry, in order) and `onLeafChange`, or read `getEntriesAppendedSince`.
 *
 * Contract:
 * - Entries are kept in append (file) order; the header is never a tree node.
 * - Leaf on load = the last entry in file order (null for an empty session). Every appender
 *   adds under the current leaf, moves the leaf to the new entry and returns its id; the full
 *   entry is then available from `getEntry(id)`.
 * - Indexing is O(n) on load (one pass) and O(1) per append; getBranch is O(path length).
 * - Clock and id generator are injectable for deterministic tests.
 */

import { buildSessionContext } from "@/lib/session/context";
import { type EntryLookup, pathToRoot } from "@/lib/session/branch-path";
import { type ForkedSession, forkPath } from "@/lib/session/fork";
import { generateEntryId, generateSessionId, type TakenIds } from "@/lib/session/ids";
import { buildTreeNodes, type TreeNode } from "@/lib/session/tree-build";
import { buildIndex, indexEntry, type TreeIndex } from "@/lib/session/tree-index";
import type {
  AgentMessage,
  CustomMessageEntry,
  KnownEntry,
  SessionEntry,
  SessionContext,
  SessionHeader,
} from "@/lib/session/types";

export type { TreeNode } from "@/lib/session/tree-build";

export interface SessionTreeOptions {
  /** Clock for entry timestamps; default `() => new Date()`. */
  now?: () => Date;
  /** Entry id generator; default `generateEntryId` (spec §1.6). */
  newId?: (taken: TakenIds) => string;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * What `appendEntry` takes: an entry without `id` and `parentId` (the tree assigns them);
 * `timestamp` is optional (default: the clock). Unknown entry types are allowed (spec §1.4).
 */
export type NewEntry =
  | (DistributiveOmit<KnownEntry, "id" | "parentId" | "timestamp"> & { timestamp?: string })
  | { type: string; timestamp?: string; [key: string]: unknown };

export type AppendListener = (entry: SessionEntry) => void;
export type LeafListener = (leafId: string | null) => void;

/** Roles built by buildSessionContext only; never stored in a message entry (spec §1.5). */
const IN_MEMORY_ROLES = new Set(["compactionSummary", "branchSummary"]);

/** Copies `fields` without keys whose value is undefined, so optional fields stay absent. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}

export class SessionTree {
  private readonly header: SessionHeader;
  private readonly entries: SessionEntry[];
  private readonly index: TreeIndex;
  private leafId: string | null;
  private readonly now: () => Date;
  private readonly newId: (taken: TakenIds) => string;
  private readonly appendListeners = new Set<AppendListener>();
  private readonly leafListeners = new Set<LeafListener>();
  /**
   * Ids an append must avoid: existing entries and dangling parent references, so a new entry
   * can never adopt a file's orphans by accident.
   */
  private readonly taken: TakenIds = {
    has: (id) => this.index.byId.has(id) || this.index.children.has(id),
  };

  constructor(header: SessionHeader, entries: readonly SessionEntry[], opts: SessionTreeOptions = {}) {
    this.header = header;
    this.entries = [...entries];
    this.index = buildIndex(this.entries);
    this.leafId = this.entries.at(-1)?.id ?? null;
    this.now = opts.now ?? (() => new Date());
    this.newId = opts.newId ?? ((taken) => generateEntryId(taken));
  }

  // ── Reads ────────────────────────────────────────────────────────────────

  getHeader(): SessionHeader {
    return this.header;
  }

  /** All entries of every branch, in file order. */
  getEntries(): readonly SessionEntry[] {
    return this.entries;
  }

  getEntryCount(): number {
    return this.entries.length;
  }

  /** Entries appended after the first `count` (e.g. the count the store last persisted). */
  getEntriesAppendedSince(count: number): SessionEntry[] {
    return this.entries.slice(count);
  }

  getEntry(id: string): SessionEntry | undefined {
    return this.index.byId.get(id);
  }

  /** The id → entry index, for buildSessionContext and other walkers. */
  getIndex(): EntryLookup & ReadonlyMap<string, SessionEntry> {
    return this.index.byId;
  }

  getLeafId(): string | null {
    return this.leafId;
  }

  getLeafEntry(): SessionEntry | undefined {
    return this.leafId === null ? undefined : this.index.byId.get(this.leafId);
  }

  /** Root-first path to `fromId` (default: the leaf); [] for null or an unknown id. */
  getBranch(fromId?: string | null): SessionEntry[] {
    const id = fromId === undefined ? this.leafId : fromId;
    const start = id === null ? undefined : this.index.byId.get(id);
    return start ? pathToRoot(start, this.index.byId) : [];
  }

  /** The LLM context of the current branch (spec §2). */
  buildContext(): SessionContext {
    return buildSessionContext(this.entries, this.leafId, this.index.byId);
  }

  getTree(): TreeNode[] {
    return buildTreeNodes(this.entries, this.index.byId, this.index.labels);
  }

  /** Direct children of `id`, in file order. */
  getChildren(id: string): SessionEntry[] {
    return [...(this.index.children.get(id) ?? [])];
  }

  getLabel(id: string): string | undefined {
    return this.index.labels.get(id);
  }

  /** A copy of the resolved label map (targetId → label). */
  getLabels(): Map<string, string> {
    return new Map(this.index.labels);
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

  // ── Appends (spec §1.6) ──────────────────────────────────────────────────

  /**
   * Adds `fields` as a child of the current leaf with a fresh id and moves the leaf to it.
   * Returns the stored entry (the typed appenders return its id).
   */
  appendEntry(fields: NewEntry): SessionEntry {
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

  /** Rejects the in-memory roles compactionSummary and branchSummary (spec §1.5). */
  appendMessage(message: AgentMessage): string {
    if (IN_MEMORY_ROLES.has(message.role)) {
      throw new Error(
        `appendMessage cannot store a "${message.role}" message: it is built by buildSessionContext (spec §1.5); append a compaction or branch_summary entry instead`,
      );
    }
    return this.appendEntry({ type: "message", message }).id;
  }

  appendThinkingLevelChange(thinkingLevel: string): string {
    return this.appendEntry({ type: "thinking_level_change", thinkingLevel }).id;
  }

  /** `model` is "provider/modelId"; an absent role means "default" (spec §1.4). */
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
  ): string {
    return this.appendEntry({
      type: "compaction",
      ...defined({ summary, shortSummary, firstKeptEntryId, tokensBefore, details, fromExtension, preserveData }),
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

  /** `undefined` or "" clears the label; the label entry becomes the leaf (spec §1.6). */
  appendLabelChange(targetId: string, label: string | undefined): string {
    if (!this.index.byId.has(targetId)) throw new Error(`Entry ${targetId} not found`);
    return this.appendEntry({ type: "label", targetId, label }).id;
  }

  /** `mode` is "none" on exit (spec §1.4). */
  appendModeChange(mode: string, data?: Record<string, unknown>): string {
    return this.appendEntry({ type: "mode_change", ...defined({ mode, data }) }).id;
  }

  // ── Leaf moves (spec §1.6) ───────────────────────────────────────────────

  branch(id: string): void {
    if (!this.index.byId.has(id)) throw new Error(`Entry ${id} not found`);
    this.setLeaf(id);
  }

  /** The next append creates a new root. */
  resetLeaf(): void {
    this.setLeaf(null);
  }

  /** Moves the leaf to `fromId` and appends a branch_summary there; returns its id. */
  branchWithSummary(fromId: string | null, summary: string, details?: unknown, fromExtension?: boolean): string {
    if (fromId !== null && !this.index.byId.has(fromId)) throw new Error(`Entry ${fromId} not found`);
    this.setLeaf(fromId);
    return this.appendEntry({
      type: "branch_summary",
      ...defined({ fromId: fromId ?? "root", summary, details, fromExtension }),
    }).id;
  }

  /**
   * The session a "Fork to new session" writes (spec §1.6 steps 1–5). This tree is unchanged.
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
