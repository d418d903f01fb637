/**
 * Which turn the Context tab shows for the selected entry. Pure.
 *
 * - An assistant message: its own turn (what the model saw to write it).
 * - A compaction or branch summary: the recorded summarization call that wrote it, if any.
 * - Any other entry (a user prompt, a tool result, a setting): the turn that first sent it —
 *   the next assistant message below it, following the active path where it continues and
 *   otherwise the newest child.
 * - No selection (the pane just opened): the latest turn, i.e. the current leaf — skipping
 *   labels and settings entries at the end of the path — resolved by the rules above.
 * - A turn nobody answered yet, or a summary no recorded call wrote: the next-turn preview,
 *   with a note saying why. So the pane is never empty on open (docs/ui.md "The session workspace").
 * - An entry that is not in the session: a hint in words.
 */
import type { ModelCallSummary } from "@/lib/types/inspector";
import type { InspectTarget } from "@/lib/query/inspector";
import type { SessionEntry } from "@/lib/session/types";

/** What the rules read of an entry: a full entry or its skeleton row. */
type EntryShape = { id: string; parentId: string | null; type: string; role?: string };
type Shape = SessionEntry | EntryShape;

export type Selection = { target: InspectTarget; note?: string } | { hint: string };

/** Entries that are something to look at (labels, settings changes and custom data are not). */
const READABLE = new Set(["message", "compaction", "branch_summary", "custom_message"]);

const PREVIEW: InspectTarget = { kind: "preview" };

const MAX_STEPS = 200;

function roleOf(e: Shape): string | undefined {
  if ("role" in e && typeof e.role === "string") return e.role;
  const message = (e as { message?: { role?: unknown } }).message;
  return typeof message?.role === "string" ? message.role : undefined;
}

const isAssistant = (e: Shape | undefined) => e?.type === "message" && roleOf(e) === "assistant";

/** An entry list's id index and children, built once per list (a session view's rows array). */
interface ShapeIndex {
  byId: ReadonlyMap<string, Shape>;
  children?: Map<string, Shape[]>;
}
const indexes = new WeakMap<readonly Shape[], ShapeIndex>();

function indexOf(entries: readonly Shape[], byId?: ReadonlyMap<string, Shape>): ShapeIndex {
  let index = indexes.get(entries);
  if (!index) {
    index = { byId: byId ?? new Map(entries.map((e) => [e.id, e])) };
    indexes.set(entries, index);
  }
  return index;
}

function childrenOf(entries: readonly Shape[], index: ShapeIndex): Map<string, Shape[]> {
  if (index.children) return index.children;
  const children = new Map<string, Shape[]>();
  for (const e of entries) {
    if (typeof e.parentId !== "string") continue;
    const list = children.get(e.parentId);
    if (list) list.push(e);
    else children.set(e.parentId, [e]);
  }
  index.children = children;
  return children;
}

/**
 * The turn to show. `entries` must not change once passed: its id index and children are kept
 * per array (a session view's rows are), so choosing another entry of a 100k-entry session
 * does not index every row again.
 */
export function resolveSelection(input: {
  entryId: string | null;
  entries: readonly Shape[];
  /** Root → current leaf ids, to follow the active path below the entry (asked only then). */
  activePath: { has(id: string): boolean };
  /** `entries` by id, when the caller already has that index (a session view's `byId`). */
  byId?: ReadonlyMap<string, Shape>;
  calls: readonly ModelCallSummary[] | undefined;
  /** The current leaf: what an empty selection shows (the latest turn). */
  leafId?: string | null;
}): Selection {
  const { entries } = input;
  const index = indexOf(entries, input.byId);
  const { byId } = index;
  let entryId = input.entryId;
  if (!entryId) {
    let at = input.leafId ? byId.get(input.leafId) : undefined;
    for (let step = 0; at && !READABLE.has(at.type) && step < MAX_STEPS; step++) at = typeof at.parentId === "string" ? byId.get(at.parentId) : undefined;
    if (!at) return { target: PREVIEW, note: "Nothing was sent to the model yet: the next-turn preview" };
    entryId = at.id;
  }
  const entry = byId.get(entryId);
  if (!entry) return { hint: `Entry ${entryId} is not in this session.` };
  if (isAssistant(entry)) return { target: { kind: "entry", entryId } };

  if (entry.type === "compaction" || entry.type === "branch_summary") {
    const kinds = entry.type === "compaction" ? ["history", "turnPrefix"] : ["branch"];
    const call = input.calls?.find((c) => c.entryId === entryId && kinds.includes(c.kind));
    if (call) return { target: { kind: "call", callId: call.id }, note: "The summarization call that wrote this summary" };
    return {
      target: PREVIEW,
      note: "No recorded call wrote this summary (it was imported, or made before calls were recorded): the next-turn preview",
    };
  }

  const children = childrenOf(entries, index);
  let current: Shape | undefined = entry;
  for (let step = 0; current && step < MAX_STEPS; step++) {
    const kids: Shape[] = children.get(current.id) ?? [];
    const next: Shape | undefined = kids.find((k) => input.activePath.has(k.id)) ?? kids.at(-1);
    if (isAssistant(next)) return { target: { kind: "entry", entryId: next!.id }, note: `Showing the turn that first sent entry ${entryId}` };
    current = next;
  }
  return { target: PREVIEW, note: "No assistant answered after this entry yet: the next-turn preview, what would be sent now" };
}
