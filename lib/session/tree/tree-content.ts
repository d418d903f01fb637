/**
 * SessionTree's content (tree.ts, whose module comment is the contract; session-engine.md §1.6):
 * the entries in file order, their index and the leaf, the reads over them, entries another
 * process already committed (`addCommitted`) and rewrites of existing ones (`replaceEntries`),
 * which bump the session's content generation. SessionTree adds the writer: appends, leaf moves,
 * listeners, views and forks.
 * Pure: no network, disk or database access.
 */

import { BranchMemo } from "@/lib/session/tree/branch-memo";
import { buildSessionContext } from "@/lib/session/context";
import type { EntryLookup } from "@/lib/session/tree/branch-path";
import { buildTreeNodes, type TreeNode } from "@/lib/session/tree/tree-build";
import { buildIndex, childrenOf, indexEntry, type TreeIndex } from "@/lib/session/tree/tree-index";
import type { SessionContext, SessionEntry, SessionHeader } from "@/lib/session/types";

/**
 * A session's content generation (by header id): bumped whenever a tree of that session is built
 * from entries (a load: its objects may hold other content for ids another tree already had) or
 * replaces entries (a prune, a rewrite). While it stands still, an entry id of the session names
 * the same content in every tree of this process, so a result computed from a branch's content
 * may be remembered by (session id, leaf id, generation). Appends, forks and views never bump it:
 * they add ids, they change no existing one. Per session, so loading one session does not retire
 * what was remembered of the others; one number per session this process has built a tree of.
 */
const contentGenerations = new Map<string, number>();
let bumps = 0;

function bumpContentGeneration(sessionId: string): void {
  contentGenerations.set(sessionId, ++bumps);
}

/** See `contentGenerations`. */
export function treeContentGeneration(sessionId: string): number {
  return contentGenerations.get(sessionId) ?? 0;
}

export abstract class SessionTreeContent {
  protected readonly header: SessionHeader;
  protected readonly entries: SessionEntry[];
  protected readonly index: TreeIndex;
  /** The last branch and context built (branch-memo.ts); shared with views, which share the index. */
  protected memo: BranchMemo;
  protected leafId: string | null;
  /** Set on views: they share entries and index with another tree, so they must not add to them. */
  protected readonly readOnly: boolean = false;

  /** `index` is for SessionTree.fork() only: an index of exactly `entries`, which the tree then owns. */
  protected constructor(header: SessionHeader, entries: readonly SessionEntry[], index?: TreeIndex) {
    this.header = header;
    this.entries = [...entries];
    if (!index) bumpContentGeneration(header.id);
    this.index = index ?? buildIndex(this.entries);
    this.memo = new BranchMemo(this.index);
    this.leafId = this.entries.at(-1)?.id ?? null;
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
    return start ? this.memo.path(start) : [];
  }

  /** The LLM context of the current branch (session-engine.md §2). */
  buildContext(): SessionContext {
    const leaf = this.leafId === null ? undefined : this.index.byId.get(this.leafId);
    return leaf ? this.memo.context(this.entries, leaf) : buildSessionContext(this.entries, this.leafId, this.index.byId);
  }

  getTree(): TreeNode[] {
    return buildTreeNodes(this.entries, this.index.byId, this.index.labels);
  }

  /** Direct children of `id`, in file order. */
  getChildren(id: string): SessionEntry[] {
    return childrenOf(this.index, id);
  }

  getLabel(id: string): string | undefined {
    return this.index.labels.get(id);
  }

  /** A copy of the resolved label map (targetId → label). */
  getLabels(): Map<string, string> {
    return new Map(this.index.labels);
  }

  // ── Shared committed state ───────────────────────────────────────────────

  /**
   * Adds entries that already have ids and parents (e.g. committed by another process), in file
   * order, after the existing ones. The leaf does not move and no listener is told: they are not
   * appends of this tree. Throws on a duplicate or missing id, like loading would.
   */
  addCommitted(entries: readonly SessionEntry[]): void {
    this.assertWritable();
    for (const entry of entries) {
      indexEntry(this.index, entry);
      this.entries.push(entry);
    }
  }

  /**
   * Replaces entries by new objects with the same ids (same parent and type: a rewrite of their
   * content, e.g. a prune). Unknown ids throw and nothing changes. O(n) for the file-order list.
   */
  replaceEntries(replacements: readonly SessionEntry[]): void {
    this.assertWritable();
    const byId = new Map<string, SessionEntry>();
    for (const next of replacements) {
      const old = this.index.byId.get(next.id);
      if (!old) throw new Error(`Entry ${next.id} not found`);
      if (old.parentId !== next.parentId || old.type !== next.type) throw new Error(`Entry ${next.id}: a replacement keeps parent and type`);
      byId.set(next.id, next);
    }
    if (byId.size === 0) return;
    bumpContentGeneration(this.header.id);
    this.index.version++;
    for (let i = 0; i < this.entries.length; i++) {
      const next = byId.get(this.entries[i]!.id);
      if (next) this.entries[i] = next;
    }
    for (const next of byId.values()) {
      this.index.byId.set(next.id, next);
      const siblings = typeof next.parentId === "string" ? this.index.children.get(next.parentId) : undefined;
      const at = siblings?.findIndex((e) => e.id === next.id) ?? -1;
      if (siblings && at >= 0) siblings[at] = next;
    }
  }

  protected assertWritable(): void {
    if (this.readOnly) throw new Error("This session tree is a read-only view");
  }
}
