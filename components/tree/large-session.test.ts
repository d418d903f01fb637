/**
 * Smoke test: toFlow + layoutTree on a generated 10,000-entry session finish and give a
 * sound picture. Deliberately no timing assertion (CI machines vary); see the report for
 * measured timings.
 */
import { describe, expect, it } from "vitest";
import { layoutTree } from "@/components/tree/layout/layout";
import { overlappingPairs } from "@/components/tree/layout/layout-check";
import { toFlow } from "@/components/tree/layout/to-flow";
import { groupTurns, groupTurnsSteps } from "@/components/tree/model/turns";
import { entryGraph, entryGraphSteps, viewModel, viewModelSteps } from "@/components/tree/hooks/use-tree-model";
import { generateSession } from "@/test/generators/session";
import { runSliced } from "@/lib/session/stepwise";
import { resolveSkeleton, skeletonLabels } from "@/lib/session-view/skeleton-resolve";

describe("10,000-entry generated session", () => {
  const { entries } = generateSession({ seed: 7, entries: 10_000, branches: 12, compactions: true, labels: 8 });
  const leafId = entries.at(-1)!.id;

  for (const filter of ["default", "all", "user-only"] as const) {
    it(`lays out without overlaps (${filter})`, () => {
      const flow = toFlow(entries, { leafId, filter });
      const laid = layoutTree(flow);
      expect(laid.nodes.length).toBeGreaterThan(0);
      expect(overlappingPairs(laid.nodes)).toEqual([]);
      // Every edge joins two existing nodes.
      for (const e of flow.edges) {
        expect(laid.index.has(e.source)).toBe(true);
        expect(laid.index.has(e.target)).toBe(true);
      }
      const active = laid.nodes.filter((n) => n.data.isActive);
      expect(new Set(active.map((n) => n.position.x + (n.width ?? 0) / 2)).size).toBeLessThanOrEqual(1);
    });
  }

  it("folds tool runs and draws compaction bands", () => {
    const flow = toFlow(entries, { leafId });
    expect(flow.nodes.some((n) => n.type === "fold")).toBe(true);
    expect(flow.nodes.some((n) => n.type === "compaction")).toBe(true);
    expect(layoutTree(flow).bands.length).toBeGreaterThan(0);
  });

  it("builds the same canvas model in slices as at once (the path of sessions over 20k entries)", async () => {
    const skeleton = resolveSkeleton(entries);
    const input = { skeleton, leafId, filter: "default" as const, expanded: new Set<string>(), labels: skeletonLabels(skeleton) };
    let slices = 0;
    const onSlice = () => slices++;
    const flow = await runSliced(entryGraphSteps(input), { budgetMs: 1, onSlice });
    const grouping = await runSliced(groupTurnsSteps(flow), { budgetMs: 1, onSlice });
    const sliced = await runSliced(viewModelSteps(flow, grouping, new Set()), { budgetMs: 1, onSlice });
    const direct = entryGraph(input);
    expect(flow).toEqual(direct);
    const { built: _a, ...slicedGrouping } = grouping;
    const { built: _b, ...directGrouping } = groupTurns(direct);
    expect(slicedGrouping).toEqual(directGrouping);
    const once = viewModel(direct, groupTurns(direct), new Set());
    expect(sliced.layout.nodes).toEqual(once.layout.nodes);
    expect(sliced.landmarks).toEqual(once.landmarks);
    expect(sliced.layout.nodes.some((n) => n.type === "turn")).toBe(true);
    expect(slices).toBeGreaterThan(3);
  });
});
