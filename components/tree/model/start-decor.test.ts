/** A branch summary written at the session start hangs under the drawn session start (ui.md). */
import { describe, expect, it } from "vitest";

import { START_ID } from "@/components/tree/model/start-decor";
import type { SessionEntry } from "@/lib/session/types";
import { treeModel } from "@/test/tree-models";
import { branchSummaryEntry, isoAt } from "@/test/session-factories";
import { reply, user } from "@/test/tree-sessions";

const model = (entries: SessionEntry[], leafId: string) => treeModel(entries, { leafId });

describe("the session start above several roots", () => {
  it("one root: nothing drawn", () => {
    const m = model([user("u1", null), reply("a1", "u1")], "a1");
    expect(m.bandNodes.some((n) => n.type === "start")).toBe(false);
    expect(m.landmarks[0]!.parts.map((p) => p.kind)).toContain("start");
  });

  it("a root branch summary (continued from the first message): both roots hang under the session start", () => {
    const entries = [
      user("u1", null),
      reply("a1", "u1"),
      branchSummaryEntry("B", null, "root", "We tried parsing line by line.", { timestamp: isoAt(9_000) }),
      user("u1b", "B", "Another way"),
    ];
    const m = model(entries, "u1b");
    const start = m.bandNodes.find((n) => n.type === "start");
    expect(start?.id).toBe(START_ID);
    const edges = m.edges.filter((e) => e.data?.kind === "start");
    // The current path's root (the summary) comes first and its edge is active.
    expect(edges.map((e) => [e.target, e.data?.isActive])).toEqual([
      ["B", true],
      ["u1", false],
    ]);
    // Drawn above the roots, over the first (current) one.
    const b = m.layout.nodes[m.layout.index.get("B")!]!;
    expect(start!.position.y + (start!.height ?? 0)).toBeLessThan(b.position.y);
    expect(start!.position.x).toBeGreaterThanOrEqual(b.position.x);
    // The drawn start replaces the "session start" caption; the layout's tree does not include it.
    expect(m.landmarks.flatMap((l) => l.parts.map((p) => p.kind))).not.toContain("start");
    expect(m.layout.index.has(START_ID)).toBe(false);
  });
});
