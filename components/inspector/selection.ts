/**
 * Which turn the Context tab shows for the selected entry. Pure.
 *
 * - An assistant message: its own turn (what the model saw to write it).
 * - A compaction or branch summary: the recorded summarization call that wrote it, if any.
 * - Any other entry (a user prompt, a tool result, a setting): the turn that first sent it —
 *   the next assistant message below it, following the active path where it continues and
 *   otherwise the newest child.
 * - Nothing found: a hint in words.
 */
import type { ModelCallSummary } from "@/lib/inspector/types";
import type { InspectTarget } from "@/lib/query/inspector";
import type { SessionEntry } from "@/lib/session/types";

/** What the rules read of an entry: a full entry or its skeleton row. */
type EntryShape = { id: string; parentId: string | null; type: string; role?: string };
type Shape = SessionEntry | EntryShape;

export type Selection = { target: InspectTarget; note?: string } | { hint: string };

const MAX_STEPS = 200;

function roleOf(e: Shape): string | undefined {
  if ("role" in e && typeof e.role === "string") return e.role;
  const message = (e as { message?: { role?: unknown } }).message;
  return typeof message?.role === "string" ? message.role : undefined;
}

const isAssistant = (e: Shape | undefined) => e?.type === "message" && roleOf(e) === "assistant";

export function resolveSelection(input: {
  entryId: string | null;
  entries: readonly Shape[];
  /** Root → current leaf ids, to follow the active path below the entry. */
  activePath: ReadonlySet<string>;
  calls: readonly ModelCallSummary[] | undefined;
}): Selection {
  const { entryId, entries } = input;
  if (!entryId) return { hint: "Select an assistant message in the chat or a node on the canvas to see what the model saw." };
  const byId = new Map(entries.map((e) => [e.id, e]));
  const entry = byId.get(entryId);
  if (!entry) return { hint: `Entry ${entryId} is not in this session.` };
  if (isAssistant(entry)) return { target: { kind: "entry", entryId } };

  if (entry.type === "compaction" || entry.type === "branch_summary") {
    const kinds = entry.type === "compaction" ? ["history", "turnPrefix"] : ["branch"];
    const call = input.calls?.find((c) => c.entryId === entryId && kinds.includes(c.kind));
    if (call) return { target: { kind: "call", callId: call.id }, note: "The summarization call that wrote this summary" };
    return { hint: "No recorded call wrote this summary (it was imported, or made before calls were recorded)." };
  }

  const children = new Map<string, Shape[]>();
  for (const e of entries) {
    if (typeof e.parentId !== "string") continue;
    const list = children.get(e.parentId);
    if (list) list.push(e);
    else children.set(e.parentId, [e]);
  }
  let current: Shape | undefined = entry;
  for (let step = 0; current && step < MAX_STEPS; step++) {
    const kids: Shape[] = children.get(current.id) ?? [];
    const next: Shape | undefined = kids.find((k) => input.activePath.has(k.id)) ?? kids.at(-1);
    if (isAssistant(next)) return { target: { kind: "entry", entryId: next!.id }, note: `Showing the turn that first sent entry ${entryId}` };
    current = next;
  }
  return { hint: "No assistant answered after this entry yet: see the next-turn preview for what would be sent now." };
}
