import { describe, expect, it } from "vitest";
import { CAPTION_HEIGHT, captionWidth, placeLandmarks } from "@/components/tree/layout/caption-placement";
import { type Landmark, selectLandmarks } from "@/components/tree/model/landmarks";
import { layoutTree } from "@/components/tree/layout/layout";
import { compactedSession } from "@/test/tree-sessions";
import { toFlow } from "@/components/tree/layout/to-flow";
import { collapseTurns, groupTurns } from "@/components/tree/model/turns";
import { generateSession } from "@/test/generators/session";
import type { SessionEntry } from "@/lib/session/types";

function overviewLandmarks(entries: SessionEntry[], leafId: string, labels?: Map<string, string>) {
  const flow = toFlow(entries, { leafId, ...(labels ? { labels } : {}) });
  const c = collapseTurns(flow, groupTurns(flow), () => true);
  return { landmarks: selectLandmarks(c.nodes, c.edges), graph: c };
}

const kinds = (l: Landmark) => l.parts.map((p) => p.kind);

describe("selectLandmarks", () => {
  it("compactions with tokens before, first kept, branch points, labels and the current leaf", () => {
    const { landmarks } = overviewLandmarks(compactedSession(), "a5", new Map([["u4", "checkpoint"]]));
    const by = new Map(landmarks.map((l) => [l.nodeId, l]));
    expect(by.get("turn:u1")!.parts).toEqual([
      { kind: "start", text: "session start" },
      { kind: "branchPoint", text: "branch point: 2 branches" },
    ]);
    // Each compaction says when it was written, its summary's size and the turns it covered,
    // so two compactions of the same span read apart.
    expect(by.get("C1")!.parts[0]).toEqual({ kind: "compaction", text: "[compaction: 12k tokens]" });
    expect(by.get("C1")!.parts[1]!.kind).toBe("when");
    expect(by.get("C1")!.parts[1]!.text).toMatch(/^\w{3} \d{1,2} \d\d:\d\d · 7 tokens summary · covers turns 1–2$/);
    expect(by.get("C2")!.parts[0]).toEqual({ kind: "compaction", text: "[compaction: 30k tokens]" });
    expect(by.get("C2")!.parts[1]!.text).toMatch(/ · covers turn 4$/);
    expect(kinds(by.get("turn:u3")!)).toEqual(["firstKept"]);
    // C2 keeps from a4, inside the turn of u4, which also holds the label.
    expect(by.get("turn:u4")!.parts).toEqual([
      { kind: "firstKept", text: "first kept" },
      { kind: "label", text: "label: checkpoint" },
    ]);
    expect(kinds(by.get("turn:u5")!)).toEqual(["leaf"]);
    // Where the model's memory begins now (the latest compaction C2 and its first kept entry)
    // outranks older compactions; only the current leaf ranks higher.
    expect(by.get("turn:u5")!.priority).toBe(0);
    expect(by.get("C2")!.priority).toBe(1);
    expect(by.get("turn:u4")!.priority).toBe(1);
    expect(by.get("C1")!.priority).toBeGreaterThan(by.get("turn:u1")!.priority);
    // Nothing else is a landmark (the side branch's turn, u2's turn).
    expect(by.has("turn:u2")).toBe(false);
    expect(by.has("turn:u2b")).toBe(false);
  });
});

describe("placeLandmarks", () => {
  const lm = (id: string, kind: Landmark["parts"][0]["kind"], priority: number): Landmark => ({
    nodeId: id,
    entryId: id,
    parts: [{ kind, text: kind }],
    priority,
  });

  it("captions never overlap: the more important one keeps its spot, the other moves; off-screen ones go to the edges", () => {
    const list = [lm("label", "label", 5), lm("leaf", "leaf", 0), lm("up", "compaction", 1), lm("down", "firstKept", 2)];
    const boxes: Record<string, { x: number; y: number; width: number; height: number }> = {
      label: { x: 100, y: 200, width: 20, height: 6 },
      leaf: { x: 100, y: 203, width: 20, height: 6 },
      up: { x: 100, y: -500, width: 20, height: 6 },
      down: { x: 100, y: 5000, width: 20, height: 6 },
    };
    const p = placeLandmarks(list, (l) => boxes[l.nodeId], { width: 800, height: 600 });
    expect(p.captions.map((c) => c.landmark.nodeId)).toEqual(["leaf", "label"]);
    const [leaf, label] = p.captions;
    expect(leaf).toMatchObject({ x: 128, y: 206 - CAPTION_HEIGHT / 2 });
    expect(label!.x + label!.width).toBeLessThanOrEqual(100); // moved to the node's left side
    expect(p.above.map((l) => l.nodeId)).toEqual(["up"]);
    // Off screen, only the nearest landmark of each kind is listed.
    const more = [lm("c-far", "compaction", 3), lm("c-near", "compaction", 3), lm("b", "branchPoint", 2)];
    const at: Record<string, number> = { "c-far": -3000, "c-near": -200, b: -2000 };
    const edge = placeLandmarks(more, (l) => ({ x: 10, y: at[l.nodeId]!, width: 10, height: 4 }), { width: 800, height: 600 });
    expect(edge.above.map((l) => l.nodeId)).toEqual(["b", "c-near"]);
    expect(p.below.map((l) => l.nodeId)).toEqual(["down"]);
  });

  it("a landmark with no free spot gets no caption", () => {
    const list = Array.from({ length: 30 }, (_, i) => lm(`n${i}`, "label", 5));
    const p = placeLandmarks(list, () => ({ x: 300, y: 300, width: 10, height: 4 }), { width: 800, height: 600 });
    expect(p.captions.length).toBe(10); // right and left, at five heights
  });

  it("at Fit view of a generated 1,000-entry session the compaction, first kept, branch point and leaf all get a caption", () => {
    const { entries } = generateSession({ seed: 21, entries: 1000, branches: 1, compactions: true });
    const leaf = entries.at(-1)!.id;
    const { landmarks, graph } = overviewLandmarks(entries, leaf);
    const layout = layoutTree(graph);
    const pane = { width: 700, height: 560 };
    const zoom = Math.min(pane.width / layout.bounds.width, pane.height / layout.bounds.height) * 0.9;
    const p = placeLandmarks(
      landmarks,
      (l) => {
        const n = layout.nodes[layout.index.get(l.nodeId)!]!;
        return { x: n.position.x * zoom + 20, y: n.position.y * zoom + 20, width: n.width! * zoom, height: n.height! * zoom };
      },
      pane,
    );
    const shown = new Set(p.captions.flatMap((c) => kinds(c.landmark)));
    for (const k of ["leaf", "compaction", "firstKept", "branchPoint"] as const) expect(shown.has(k), k).toBe(true);
    for (const a of p.captions)
      for (const b of p.captions) {
        if (a === b) continue;
        const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + CAPTION_HEIGHT && b.y < a.y + CAPTION_HEIGHT;
        expect(overlap).toBe(false);
      }
    expect(p.captions.every((c) => c.width === captionWidth(c.landmark))).toBe(true);
  });
});
