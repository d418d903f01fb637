/** Captions are placed, never stacked, and never over a card (caption-placement.ts, map-captions.ts). */
import { describe, expect, it } from "vitest";
import { CAPTION_HEIGHT, captionWidth, partWidth, placeLandmarks, type ScreenBox } from "@/components/tree/layout/caption-placement";
import type { Landmark } from "@/components/tree/model/landmarks";
import { mapCaptions } from "@/components/tree/layout/map-captions";
import { generateSession } from "@/test/generators/session";
import { overviewModel } from "@/test/tree-models";

const meets = (a: ScreenBox, b: ScreenBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const PANE = { width: 940, height: 460 };

describe("placing the map's captions", () => {
  it("at Fit view of a generated 1,000-entry session: the leaf, compactions, errors and many prompts, none over a card or another caption", () => {
    const { entries } = generateSession({ seed: 1313, entries: 1000, branches: 1, compactions: true });
    const model = overviewModel(entries, { pane: PANE });
    const { layout } = model;
    const zoom = Math.min(PANE.width / (layout.bounds.width * 1.2), PANE.height / (layout.bounds.height * 1.2));
    const tx = (PANE.width - layout.bounds.width * zoom) / 2;
    const ty = (PANE.height - layout.bounds.height * zoom) / 2;
    const boxOfNode = (n: (typeof layout.nodes)[number]) => ({
      x: n.position.x * zoom + tx,
      y: n.position.y * zoom + ty,
      width: (n.width ?? 0) * zoom,
      height: (n.height ?? 0) * zoom,
    });
    const cards = layout.nodes.map(boxOfNode);
    const p = placeLandmarks(
      model.landmarks.concat(model.captions),
      (l) => boxOfNode(layout.nodes[layout.index.get(l.nodeId)!]!),
      PANE,
      { obstacles: cards },
    );
    const boxes = p.captions.map((c) => ({ x: c.x, y: c.y, width: c.width, height: CAPTION_HEIGHT }));
    for (const [i, b] of boxes.entries()) {
      expect(cards.some((c) => meets(b, c)), `caption ${i} over a card`).toBe(false);
      for (const other of boxes.slice(i + 1)) expect(meets(b, other)).toBe(false);
      expect(b.x >= 0 && b.y >= 0 && b.x + b.width <= PANE.width && b.y + b.height <= PANE.height).toBe(true);
    }
    const kinds = new Set(p.captions.flatMap((c) => c.landmark.parts.map((x) => x.kind)));
    for (const k of ["leaf", "compaction", "error", "prompt"] as const) expect(kinds.has(k), k).toBe(true);
    expect(p.captions.filter((c) => c.landmark.parts.at(-1)?.kind === "prompt").length).toBeGreaterThanOrEqual(15);
  });

  it("where a leaf's caption has no room whole, it keeps its most important parts: you are here is always drawn", () => {
    const leaf: Landmark = {
      nodeId: "c",
      entryId: "c",
      parts: [
        { kind: "leaf", text: "you are here" },
        { kind: "compaction", text: "[compaction: 131k tokens]" },
        { kind: "branchPoint", text: "branch point: 2 branches" },
      ],
      priority: 0,
    };
    // A slab near the right edge of a narrow pane: left and right of it there is room for ~150 px.
    const pane = { width: 360, height: 200 };
    const box = { x: 190, y: 90, width: 12, height: 16 };
    expect(captionWidth(leaf)).toBeGreaterThan(pane.width - (box.x + box.width));
    const placed = placeLandmarks([leaf], () => box, pane).captions;
    expect(placed).toHaveLength(1);
    const texts = placed[0]!.landmark.parts.map((p) => p.text);
    expect(texts).toContain("you are here");
    expect(texts.length).toBeLessThan(leaf.parts.length);
    expect(placed[0]!.x + placed[0]!.width).toBeLessThanOrEqual(pane.width);
  });

  it("a turn's caption sits right of its card, level with it, or nowhere", () => {
    const turn: Landmark = { nodeId: "t", entryId: "t", parts: [{ kind: "prompt", text: "4 · fix the parser" }], priority: 7 };
    const box = { x: 100, y: 100, width: 60, height: 16 };
    const free = placeLandmarks([turn], () => box, PANE);
    expect(free.captions[0]).toMatchObject({ x: 168, y: 108 - CAPTION_HEIGHT / 2 });
    // Something right of it: no caption (not left, not a row up or down).
    const blocked = placeLandmarks([turn], () => box, PANE, { obstacles: [{ x: 170, y: 90, width: 10, height: 40 }] });
    expect(blocked.captions).toEqual([]);
  });

  it("a long prompt is cut to the room there is; a compaction's details are cut, then left out", () => {
    const turn: Landmark = { nodeId: "t", entryId: "t", parts: [{ kind: "prompt", text: `7 · ${"word ".repeat(12)}` }], priority: 7 };
    const box = { x: 100, y: 100, width: 60, height: 16 };
    const wall = { x: 168 + 140, y: 0, width: 10, height: 400 };
    const cut = placeLandmarks([turn], () => box, PANE, { obstacles: [wall] }).captions[0]!;
    expect(cut.width).toBeLessThan(captionWidth(turn));
    expect(cut.x + cut.width).toBeLessThanOrEqual(wall.x);
    const compaction: Landmark = {
      nodeId: "c",
      entryId: "c",
      parts: [
        { kind: "compaction", text: "[compaction: 229k tokens]" },
        { kind: "when", text: "Jan 15 14:32 · 2.1k tokens summary · covers turns 3–40" },
      ],
      priority: 3,
    };
    const tight = { x: 168 + partWidth("[compaction: 229k tokens]") + 20, y: 0, width: 10, height: 400 };
    const left = { x: 0, y: 0, width: 92, height: 400 };
    const placed = placeLandmarks([compaction], () => box, PANE, { obstacles: [tight, left] }).captions[0]!;
    expect(placed.landmark.parts.map((x) => x.kind)).toEqual(["compaction"]);
  });

  it("turn captions name errors, pauses and the prompt with its number; errors come first", () => {
    const { entries } = generateSession({ seed: 9, entries: 400 });
    const model = overviewModel(entries);
    const captions = mapCaptions(model.flow.nodes);
    const turns = model.flow.nodes.filter((n) => n.type === "turn");
    expect(captions).toHaveLength(turns.length);
    const withError = captions.find((c) => c.parts.some((x) => x.kind === "error"));
    expect(withError, "the generated session has an error").toBeDefined();
    expect(withError!.parts.at(-1)!.text).toMatch(/^\d+ · /);
    const plain = captions.find((c) => c.parts.length === 1)!;
    expect(withError!.priority).toBeLessThan(plain.priority);
  });
});
