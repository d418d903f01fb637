/**
 * Smoke test: toFlow + layoutTree on a generated 10,000-entry session finish and give a
 * sound picture. Deliberately no timing assertion (CI machines vary); see the report for
 * measured timings.
 */
import { describe, expect, it } from "vitest";
import { layoutTree } from "@/components/tree/layout";
import { overlappingPairs } from "@/components/tree/layout-check";
import { toFlow } from "@/components/tree/to-flow";
import { generateSession } from "@/lib/session/generate";

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
});
