import { describe, expect, it } from "vitest";
import { buildTreeModel, entryGraph } from "@/components/tree/hooks/use-tree-model";
import { groupTurns } from "@/components/tree/model/turns";
import { resolveSkeleton, skeletonLabels } from "@/lib/session-view/skeleton-resolve";
import type { SessionEntry } from "@/lib/session/types";
import { generateSession } from "@/test/generators/session";

/**
 * A large session's page draws the map of its current path's tail before the whole tree has
 * streamed in (tree-canvas.tsx `partial`): its turns carry the numbers the whole tree gives them,
 * and its first entry is not called the session start.
 */
function pathOf(entries: readonly SessionEntry[], leafId: string): SessionEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const path: SessionEntry[] = [];
  for (let e = byId.get(leafId); e; e = e.parentId ? byId.get(e.parentId) : undefined) path.push(e);
  return path.reverse();
}

const isPrompt = (e: SessionEntry) => e.type === "message" && e.message.role === "user";
/** Each turn's number by its id (`turn:<first entry id>`). */
function ordinals(flow: ReturnType<typeof entryGraph>, base?: number): Map<string, number> {
  const g = groupTurns(flow, base);
  return new Map(g.turns.map((t, i) => [t.id, g.ordinal[i]!]));
}

describe("the map of the path's tail", () => {
  it("numbers its turns as the whole tree does and names no session start", () => {
    const { entries } = generateSession({ seed: 11, entries: 3_000, branches: 4, labels: 3 });
    const leafId = entries.at(-1)!.id;
    const path = pathOf(entries, leafId);
    const skeleton = resolveSkeleton(entries);
    const input = { leafId, filter: "default" as const, expanded: new Set<string>(), zoomLevel: "overview" as const };
    const whole = buildTreeModel({ ...input, skeleton, labels: skeletonLabels(skeleton) });

    // The tail as the page brings it: the last rows of the current path, from a prompt.
    let start = path.length - 60;
    while (!isPrompt(path[start]!)) start--;
    const tailIds = new Set(path.slice(start).map((e) => e.id));
    const tailRows = skeleton.filter((r) => tailIds.has(r.id));
    const turnsBefore = path.slice(0, start).filter(isPrompt).length;
    expect(turnsBefore).toBeGreaterThan(100);
    const tail = buildTreeModel({ ...input, skeleton: tailRows, labels: skeletonLabels(tailRows), turnsBefore });

    const wholeTurns = ordinals(entryGraph({ ...input, skeleton, labels: skeletonLabels(skeleton) }));
    const tailTurns = ordinals(entryGraph({ ...input, skeleton: tailRows, labels: skeletonLabels(tailRows) }), turnsBefore);
    expect(tailTurns.size).toBeGreaterThan(3);
    for (const [id, n] of tailTurns) expect(n, id).toBe(wholeTurns.get(id));
    // The leaf's turn is numbered by the prompts on the whole path, counted from the raw entries.
    const leafTurn = [...tailTurns.keys()].at(-1)!;
    expect(tailTurns.get(leafTurn)).toBe(path.filter(isPrompt).length);

    const kinds = (m: typeof whole) => m.landmarks.flatMap((l) => l.parts.map((p) => p.kind));
    expect(kinds(whole)).toContain("start");
    expect(kinds(tail)).not.toContain("start");
    expect(kinds(tail)).toContain("leaf");
  });
});
