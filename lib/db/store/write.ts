import "server-only";
/**
 * The engine's session operations (session-engine.md §1.6) as store writes, each one `commitEntries`:
 * append, branch, reset the leaf, branch with summary, append a compaction, label.
 *
 * Contract:
 * - Every operation states `expectedLeafId`, the leaf the caller's view is based on; if the
 *   session moved meanwhile it throws ConflictError ("This session changed in another tab —
 *   reload") and writes nothing.
 * - New entries get fresh 8-hex ids (session-engine.md §1.6) and chain from the expected leaf; the last one
 *   becomes the leaf. If a drawn id is already used in the session the write is retried with
 *   new ids (IdCollisionError never reaches the caller unless it repeats MAX_ID_RETRIES times).
 * - Unknown targets throw NotFoundError with the engine's message `Entry ${id} not found`.
 * - For several engine calls in a row, load a SessionTree (loadTree), call its appenders and
 *   commit `tree.getEntriesAppendedSince(n)` with commitEntries instead.
 */
import { generateEntryId } from "@/lib/session/file/ids";
import { archiveEntryFields } from "@/lib/session/archives";
import { pinEntryFields } from "@/lib/session/pins";
import type { NewEntry } from "@/lib/session/tree/tree";
import type { SessionEntry } from "@/lib/session/types";
import { IdCollisionError } from "../errors";
import { type CommitResult, commitEntries } from "./commit";

/** Roles built by buildSessionContext only; never stored in a message entry (session-engine.md §1.5). */
const IN_MEMORY_ROLES = new Set(["compactionSummary", "branchSummary"]);
export const MAX_ID_RETRIES = 5;

interface Base {
  sessionId: string;
  expectedLeafId: string | null;
}

function withoutUndefined(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}

/** Entries chained under `parentId`, with fresh ids and `now` as default timestamp. */
function buildEntries(parentId: string | null, fields: readonly NewEntry[], now: Date): SessionEntry[] {
  const taken = new Set<string>();
  const out: SessionEntry[] = [];
  let parent = parentId;
  for (const f of fields) {
    const { timestamp, id: _id, parentId: _parent, ...rest } = f as NewEntry & { id?: unknown; parentId?: unknown };
    const message = (rest as { message?: { role?: unknown } }).message;
    if (rest.type === "message" && IN_MEMORY_ROLES.has(String(message?.role))) {
      throw new Error(
        `Cannot store a "${String(message?.role)}" message: it is built by buildSessionContext (session-engine.md §1.5); append a compaction or branch_summary entry instead`,
      );
    }
    const id = generateEntryId({ has: (x) => taken.has(x) || x === parentId });
    taken.add(id);
    out.push({ ...withoutUndefined(rest), id, parentId: parent, timestamp: timestamp ?? now.toISOString() } as SessionEntry);
    parent = id;
  }
  return out;
}

async function appendWithRetry(
  input: Base & { fields: readonly NewEntry[]; requiredIds?: string[]; parentId?: string | null; now?: Date },
): Promise<CommitResult> {
  const parent = input.parentId !== undefined ? input.parentId : input.expectedLeafId;
  for (let attempt = 1; ; attempt++) {
    const entries = buildEntries(parent, input.fields, input.now ?? new Date());
    try {
      return await commitEntries({
        sessionId: input.sessionId,
        expectedLeafId: input.expectedLeafId,
        entries,
        ...(input.requiredIds ? { requiredIds: input.requiredIds } : {}),
      });
    } catch (error) {
      if (!(error instanceof IdCollisionError) || attempt >= MAX_ID_RETRIES) throw error;
    }
  }
}

/** Appends entries under the expected leaf (the engine's appenders); the last one becomes the leaf. */
export async function appendEntries(input: Base & { entries: readonly NewEntry[]; now?: Date }): Promise<CommitResult> {
  return appendWithRetry({ ...input, fields: input.entries });
}

/** Moves the leaf to `targetId` (session-engine.md §1.6 branch). */
export async function branch(input: Base & { targetId: string }): Promise<CommitResult> {
  return commitEntries({ sessionId: input.sessionId, expectedLeafId: input.expectedLeafId, entries: [], newLeafId: input.targetId });
}

/** Sets the leaf to null: the next append starts a new root (session-engine.md §1.6 resetLeaf). */
export async function resetLeaf(input: Base): Promise<CommitResult> {
  return commitEntries({ sessionId: input.sessionId, expectedLeafId: input.expectedLeafId, entries: [], newLeafId: null });
}

/**
 * Moves to `fromId` (null = root) and appends a branch_summary there, which becomes the leaf
 * (session-engine.md §1.6 branchWithSummary). Returns the commit; the summary's id is `entries[0].id`.
 */
export async function branchWithSummary(
  input: Base & { fromId: string | null; summary: string; details?: unknown; fromExtension?: boolean; now?: Date },
): Promise<CommitResult> {
  const fields = { type: "branch_summary", fromId: input.fromId ?? "root", summary: input.summary, details: input.details, fromExtension: input.fromExtension };
  return appendWithRetry({ ...input, parentId: input.fromId, fields: [fields as NewEntry] });
}

/** Appends a compaction entry under the expected leaf (session-engine.md §1.6 appendCompaction). */
export async function appendCompaction(
  input: Base & {
    summary: string;
    shortSummary?: string;
    firstKeptEntryId: string;
    tokensBefore: number;
    details?: unknown;
    fromExtension?: boolean;
    preserveData?: Record<string, unknown>;
    /** Arbor §19: the pinned entries carried after the summary. */
    pinnedEntryIds?: string[];
    now?: Date;
  },
): Promise<CommitResult> {
  const { summary, shortSummary, firstKeptEntryId, tokensBefore, details, fromExtension, preserveData, pinnedEntryIds } = input;
  const fields = {
    type: "compaction",
    summary,
    shortSummary,
    firstKeptEntryId,
    tokensBefore,
    details,
    fromExtension,
    preserveData,
    ...(pinnedEntryIds?.length ? { pinnedEntryIds } : {}),
  };
  return appendWithRetry({ ...input, fields: [fields as NewEntry], requiredIds: [firstKeptEntryId] });
}

/**
 * Sets (or with undefined / "" clears) the label of `targetId`. As in the engine the label
 * entry is appended under the leaf and becomes the leaf (session-engine.md §1.6 appendLabelChange).
 */
export async function setLabel(input: Base & { targetId: string; label: string | undefined; now?: Date }): Promise<CommitResult> {
  const fields = { type: "label", targetId: input.targetId, label: input.label };
  return appendWithRetry({ ...input, fields: [fields as NewEntry], requiredIds: [input.targetId] });
}

/**
 * Pins or unpins `targetId` (session-engine.md §19): a pi `custom` entry (customType "arbor.pin") appended
 * under the leaf, which it becomes, like a label change.
 */
export async function setPin(input: Base & { targetId: string; pinned: boolean; now?: Date }): Promise<CommitResult> {
  return appendWithRetry({ ...input, fields: [pinEntryFields(input.targetId, input.pinned) as NewEntry], requiredIds: [input.targetId] });
}

/**
 * Archives (or restores) the branch starting at `targetId` (session-engine.md §19.4): a pi `custom`
 * entry (customType "arbor.archive") appended under the leaf, which it becomes, like a pin.
 */
export async function setArchive(input: Base & { targetId: string; archived: boolean; now?: Date }): Promise<CommitResult> {
  return appendWithRetry({ ...input, fields: [archiveEntryFields(input.targetId, input.archived) as NewEntry], requiredIds: [input.targetId] });
}
