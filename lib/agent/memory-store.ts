/**
 * MemoryAgentStore: an AgentStore that keeps a session in memory — a real implementation of the
 * port (used by the CLI and by the agent's unit tests), not a mock.
 *
 * It behaves like the database store where the agent can observe it:
 * - `commit` is atomic and optimistic: it throws ConflictError when the stored leaf is not
 *   `expectedLeafId`, and validates every entry (unique id, known parent, known new leaf)
 *   before writing anything.
 * - What it stores is a sanitized deep copy (session-engine.md §1.9: `partialJson`/`jsonlEvents` dropped,
 *   over-long strings cut), so later in-place changes to the caller's tree do not leak in.
 * - `persistPrune` rewrites the pruned tool results and keeps their original content.
 * - The leaf is stored (as Arbor's database does, session-engine.md §18), and `loadTree` restores it.
 */
import { type AgentStore, type AgentStoreCommit, ConflictError, type PrunedToolResultRecord } from "@/lib/agent/ports";
import { sanitizeForPersist } from "@/lib/session/file/sanitize";
import { SessionTree, type SessionTreeOptions } from "@/lib/session/tree/tree";
import type { ImageContent, SessionEntry, SessionHeader, TextContent } from "@/lib/session/types";

export interface MemoryStoreInit {
  header: SessionHeader;
  entries?: readonly SessionEntry[];
  /** Default: the last entry in file order (session-engine.md §1.6), null for an empty session. */
  leafId?: string | null;
}

export class MemoryAgentStore implements AgentStore {
  private readonly header: SessionHeader;
  private readonly entries: SessionEntry[] = [];
  private readonly byId = new Map<string, SessionEntry>();
  private readonly prunedOriginals = new Map<string, (TextContent | ImageContent)[]>();
  private leafId: string | null;
  private commits = 0;

  constructor(init: MemoryStoreInit) {
    this.header = sanitizeForPersist(init.header);
    for (const entry of init.entries ?? []) this.insert(sanitizeForPersist(entry));
    this.leafId = init.leafId === undefined ? (this.entries.at(-1)?.id ?? null) : init.leafId;
    if (this.leafId !== null && !this.byId.has(this.leafId)) throw new Error(`Entry ${this.leafId} not found`);
  }

  /** A store holding a copy of `tree` (its header, every entry and its current leaf). */
  static fromTree(tree: SessionTree): MemoryAgentStore {
    return new MemoryAgentStore({ header: tree.getHeader(), entries: tree.getEntries(), leafId: tree.getLeafId() });
  }

  // ── AgentStore ───────────────────────────────────────────────────────────

  async commit({ expectedLeafId, entries, newLeafId }: AgentStoreCommit): Promise<void> {
    if (expectedLeafId !== this.leafId) throw new ConflictError({ expectedLeafId, actualLeafId: this.leafId });
    // Validate the whole batch first: a commit writes everything or nothing.
    const batchIds = new Set<string>();
    for (const entry of entries) {
      if (typeof entry.id !== "string" || entry.id === "") throw new Error("Entry has no id");
      if (this.byId.has(entry.id) || batchIds.has(entry.id)) throw new Error(`Entry ${entry.id} already exists`);
      if (entry.parentId !== null && !this.byId.has(entry.parentId) && !batchIds.has(entry.parentId)) {
        throw new Error(`Parent ${entry.parentId} of entry ${entry.id} not found`);
      }
      batchIds.add(entry.id);
    }
    if (newLeafId !== null && !this.byId.has(newLeafId) && !batchIds.has(newLeafId)) {
      throw new Error(`Entry ${newLeafId} not found`);
    }
    for (const entry of entries) this.insert(sanitizeForPersist(entry));
    this.leafId = newLeafId;
    this.commits++;
  }

  async persistPrune(pruned: PrunedToolResultRecord[]): Promise<void> {
    for (const record of pruned) {
      const entry = this.byId.get(record.entryId);
      if (entry?.type !== "message" || entry.message.role !== "toolResult") {
        throw new Error(`Entry ${record.entryId} is not a stored tool result`);
      }
    }
    for (const record of pruned) {
      const entry = this.byId.get(record.entryId)!;
      // The first prune's original wins: re-pruning must not overwrite the real content.
      if (!this.prunedOriginals.has(record.entryId)) {
        this.prunedOriginals.set(record.entryId, sanitizeForPersist(record.originalContent));
      }
      const stored = { ...entry, message: sanitizeForPersist(record.message) } as SessionEntry;
      this.entries[this.entries.indexOf(entry)] = stored;
      this.byId.set(record.entryId, stored);
    }
  }

  // ── Reads ────────────────────────────────────────────────────────────────

  getHeader(): SessionHeader {
    return structuredClone(this.header);
  }

  /** Copies of every stored entry, in append order. */
  getEntries(): SessionEntry[] {
    return this.entries.map((e) => structuredClone(e));
  }

  getEntry(id: string): SessionEntry | undefined {
    const entry = this.byId.get(id);
    return entry && structuredClone(entry);
  }

  getLeafId(): string | null {
    return this.leafId;
  }

  /** How many commits succeeded. */
  getCommitCount(): number {
    return this.commits;
  }

  /** The content a pruned tool result had before its first prune. */
  getPrunedOriginal(entryId: string): (TextContent | ImageContent)[] | undefined {
    const content = this.prunedOriginals.get(entryId);
    return content && structuredClone(content);
  }

  /** A fresh SessionTree over copies of the stored entries, at the stored leaf. */
  loadTree(opts: SessionTreeOptions = {}): SessionTree {
    const tree = new SessionTree(this.getHeader(), this.getEntries(), opts);
    if (this.leafId === null) tree.resetLeaf();
    else tree.branch(this.leafId);
    return tree;
  }

  private insert(entry: SessionEntry): void {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
  }
}
