/**
 * BranchMemo: SessionTree's memory of the last branch it walked and the context built on it, so
 * a turn's repeated reads (the compaction check, the working context, the context meter) and
 * the appends between them cost what changed, not the whole branch.
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - `path(start)` is pathToRoot(start) (root first). When `start` descends from the remembered
 *   tip within MAX_STEPS parents (a few appends since), the remembered path is extended; when it
 *   lies on the remembered path within MAX_STEPS of the tip (the leaf moved back: a retry, a
 *   branch from a recent message), the path is cut there; else the branch is walked again.
 *   `context(leaf)` is buildSessionContext at `leaf`: extended from the remembered context when
 *   only `message` entries were appended below it (they add their message and, for an
 *   assistant, the default model), cut back when only `message` entries were left below the
 *   new leaf (each had put its message last; the default model is the last one left on the
 *   path), else built again.
 * - Sound because parents never change and entries are only replaced through
 *   SessionTree.replaceEntries, which bumps the index's `version`: a memo of another index or
 *   version is never used. Results are fresh arrays / objects; the memo keeps its own.
 */
import { pathToRoot } from "@/lib/session/tree/branch-path";
import { buildSessionContext, defaultModelSetBy } from "@/lib/session/context";
import type { TreeIndex } from "@/lib/session/tree/tree-index";
import type { SessionContext, SessionEntry } from "@/lib/session/types";

/** How far above `start` the remembered tip may be (appends of one turn). */
const MAX_STEPS = 256;

interface Remembered {
  index: TreeIndex;
  version: number;
  path: readonly SessionEntry[];
  context?: SessionContext;
}

function copyContext(ctx: SessionContext): SessionContext {
  return { ...ctx, messages: ctx.messages.slice(), models: { ...ctx.models }, injectedTtsrRules: ctx.injectedTtsrRules.slice() };
}

/**
 * `ctx` (the context at the end of `path`) at `path[kept - 1]`, when every entry cut is a
 * `message` entry whose message ends `ctx.messages` in path order (always so for a context
 * built on `path`: such entries come after its compaction); undefined otherwise (build again).
 */
function cutContext(ctx: SessionContext, path: readonly SessionEntry[], kept: number): SessionContext | undefined {
  const cut = path.length - kept;
  const left = ctx.messages.length - cut;
  if (left < 0) return undefined;
  for (let i = 0; i < cut; i++) {
    const entry = path[kept + i]!;
    if (entry.type !== "message" || ctx.messages[left + i] !== entry.message) return undefined;
  }
  const next = copyContext(ctx);
  next.messages.length = left;
  // Session-engine.md §2 step 5: the last entry that sets the default model wins.
  delete next.models.default;
  for (let i = kept - 1; i >= 0; i--) {
    const model = defaultModelSetBy(path[i]!);
    if (model === undefined) continue;
    next.models.default = model;
    break;
  }
  return next;
}

export class BranchMemo {
  private last: Remembered | undefined;

  constructor(private readonly index: TreeIndex) {}

  /** A memo for `index` (a fork's) that starts from this one's branch: same entry objects. */
  rebase(index: TreeIndex, sameEntries: boolean): BranchMemo {
    const memo = new BranchMemo(index);
    const last = this.valid();
    if (last && sameEntries) memo.last = { ...last, index, version: index.version };
    return memo;
  }

  private valid(): Remembered | undefined {
    const last = this.last;
    return last && last.index === this.index && last.version === this.index.version ? last : undefined;
  }

  /** Entries from `start` up to (not including) the remembered tip, start first; undefined: not below it. */
  private sinceTip(start: SessionEntry, last: Remembered): SessionEntry[] | undefined {
    const tip = last.path[last.path.length - 1];
    const walked: SessionEntry[] = [];
    let current: SessionEntry | undefined = start;
    while (current && walked.length <= MAX_STEPS) {
      if (current === tip) return walked;
      walked.push(current);
      const parentId: unknown = current.parentId;
      if (typeof parentId !== "string" || parentId === current.id) return undefined;
      current = this.index.byId.get(parentId);
    }
    return undefined;
  }

  /** How many entries of the remembered path lie below `start`, when it is on that path within MAX_STEPS of the tip. */
  private belowStart(start: SessionEntry, last: Remembered): number | undefined {
    const path = last.path;
    for (let cut = 1; cut <= MAX_STEPS && cut < path.length; cut++) if (path[path.length - 1 - cut] === start) return cut;
    return undefined;
  }

  /** Root-first path to `start` (a fresh array). */
  path(start: SessionEntry): SessionEntry[] {
    return this.walk(start).path.slice();
  }

  private walk(start: SessionEntry): Remembered {
    const last = this.valid();
    const added = last ? this.sinceTip(start, last) : undefined;
    if (last && added) {
      if (added.length === 0) return last;
      const next: Remembered = { index: this.index, version: this.index.version, path: last.path.concat(added.reverse()) };
      if (last.context && added.every((e) => e.type === "message")) {
        const context = copyContext(last.context);
        for (const entry of added) {
          if (entry.type !== "message") continue;
          context.messages.push(entry.message);
          const model = defaultModelSetBy(entry);
          if (model !== undefined) context.models.default = model;
        }
        next.context = context;
      }
      this.last = next;
      return next;
    }
    const cut = last ? this.belowStart(start, last) : undefined;
    if (last && cut !== undefined) {
      const kept = last.path.length - cut;
      const next: Remembered = { index: this.index, version: this.index.version, path: last.path.slice(0, kept) };
      if (last.context) next.context = cutContext(last.context, last.path, kept);
      this.last = next;
      return next;
    }
    this.last = { index: this.index, version: this.index.version, path: pathToRoot(start, this.index.byId) };
    return this.last;
  }

  /** buildSessionContext at `leaf` (an indexed entry), as a fresh object. */
  context(entries: readonly SessionEntry[], leaf: SessionEntry): SessionContext {
    const remembered = this.walk(leaf);
    remembered.context ??= buildSessionContext(entries, leaf.id, this.index.byId, remembered.path);
    return copyContext(remembered.context);
  }
}
