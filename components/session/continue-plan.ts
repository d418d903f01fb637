/**
 * What "Continue from here" will do (session-engine.md §11.4 navigateTree, ui.md "Click looks,
 * actions act"), worked out before it runs so the dialog can say it exactly.
 * Pure: no React, no network. Works on skeleton rows; a row missing from `byId` (a large
 * session's tree still streaming) ends a walk, as a missing parent ends getBranch (§1.6).
 *
 * - A user message or custom message as the target: the leaf moves to its PARENT (before it; a new
 *   root when it is the first entry) and its text goes into the composer (only when the composer
 *   is empty, the editor text rule of §11.4). Any other target becomes the leaf itself.
 * - The branch point is the deepest entry shared by the current path and the new leaf's path
 *   (§11.1 commonAncestorId); the entries of the current path after it are the branch left
 *   behind, which a branch summary would cover. It stays in the tree: nothing is deleted.
 */
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";

export interface ContinuePlan {
  target: SkeletonEntry;
  /** The entry the new branch continues after (the new leaf); null: a new root at the session start. */
  after: SkeletonEntry | null;
  /** The leaf moves before the target and its text is offered to the composer. */
  editsTarget: boolean;
  /** The deepest entry shared by the current path and the new position; null: none (new root). */
  branchPoint: SkeletonEntry | null;
  /** Entries of the current path after the branch point: the branch left behind (0: none). */
  leaving: number;
}

const EDITABLE = (e: SkeletonEntry) => (e.type === "message" && e.role === "user") || e.type === "custom_message";

/** Root-first ids of the path ending at `id` (stops at a missing row or a cycle). */
function pathIds(byId: ReadonlyMap<string, SkeletonEntry>, id: string | null): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let e = id === null ? undefined : byId.get(id); e && !seen.has(e.id); e = e.parentId === null ? undefined : byId.get(e.parentId)) {
    seen.add(e.id);
    out.push(e.id);
  }
  return out.reverse();
}

/** The plan, or null when the target is unknown. */
export function continuePlan(byId: ReadonlyMap<string, SkeletonEntry>, leafId: string | null, targetId: string): ContinuePlan | null {
  const target = byId.get(targetId);
  if (!target) return null;
  const editsTarget = EDITABLE(target);
  const afterId = editsTarget ? target.parentId : target.id;
  const after = afterId === null ? null : (byId.get(afterId) ?? null);
  const current = pathIds(byId, leafId);
  const onCurrent = new Map(current.map((id, i) => [id, i]));
  const mine = pathIds(byId, after?.id ?? null);
  let at = -1;
  for (let i = mine.length - 1; i >= 0; i--) {
    const k = onCurrent.get(mine[i]!);
    if (k !== undefined) {
      at = k;
      break;
    }
  }
  return {
    target,
    after,
    editsTarget,
    branchPoint: at >= 0 ? (byId.get(current[at]!) ?? null) : null,
    leaving: current.length - 1 - at,
  };
}

/** A row's text for the dialog, quoted and clipped. */
function quote(e: SkeletonEntry): string {
  const t = e.text.length > 90 ? `${e.text.slice(0, 89)}…` : e.text;
  return `“${t}”`;
}

const entries = (n: number) => `${n} ${n === 1 ? "entry" : "entries"}`;

export interface ContinueWords {
  /** Where the new branch starts. */
  where: string;
  /** What happens to the composer. */
  composer: string;
  /** What happens to the branch left behind. */
  left: string;
  /** Where a branch summary would go (only when there is something to summarise). */
  summary?: string;
}

/** The dialog's sentences for a plan (`draftEmpty`: the composer holds no text now). */
export function continueWords(plan: ContinuePlan, draftEmpty: boolean): ContinueWords {
  const { target, after, editsTarget, branchPoint, leaving } = plan;
  const at = after ? `after ${quote(after)}` : "at the session start, as a new root";
  const where = editsTarget
    ? `The new branch starts ${at}, just before ${quote(target)}.`
    : `The new branch starts after ${quote(target)}: your next message follows it.`;
  const composer = !editsTarget
    ? "The composer is left as it is."
    : draftEmpty
      ? "That message's text goes into the composer, to edit and send; nothing is sent until you do."
      : "The composer holds a draft, which stays: that message's text is not put in it.";
  const from = branchPoint ? `after ${quote(branchPoint)}` : "from the session start";
  const left =
    leaving > 0
      ? `The branch you are on now (${entries(leaving)} ${from}) stays in the tree, unchanged; nothing is deleted.`
      : "The current leaf lies on the way there: no branch is left behind.";
  const summary =
    leaving > 0 ? `A summary of the ${entries(leaving)} you leave is attached ${at}, where the new branch starts, so the model keeps what it learned.` : undefined;
  return { where, composer, left, ...(summary ? { summary } : {}) };
}
