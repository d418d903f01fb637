/** A long session's overview aggregates runs of turns into spans (spans.ts). */
import { describe, expect, it } from "vitest";
import { SPAN_ABOVE, SPAN_TARGET } from "@/components/tree/model/spans";
import { generateSession } from "@/test/generators/session";
import { overviewModel } from "@/test/tree-models";

function model(entries: number, expandedSpans?: ReadonlySet<string>) {
  const session = generateSession({ seed: 77, entries, branches: 2, compactions: true, labels: 3 });
  return {
    session,
    model: overviewModel(session.entries, expandedSpans ? { expandedSpans } : {}),
  };
}

describe("spans", () => {
  it("a few hundred turns stay turns", () => {
    const { model: m } = model(1500);
    expect(m.flow.nodes.some((n) => n.type === "span")).toBe(false);
  });

  it("a 10,000-entry session: about SPAN_TARGET cards, every entry drawn by exactly one node, landmarks kept apart", () => {
    const { session, model: m } = model(10_000);
    const spans = m.flow.nodes.filter((n) => n.type === "span");
    const turns = m.flow.nodes.filter((n) => n.type === "turn");
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.length + turns.length).toBeLessThan(SPAN_ABOVE);
    expect(spans.length).toBeGreaterThan(SPAN_TARGET / 3);
    // Every visible entry is shown by one node, and a span's entries are its turns' entries.
    const shown = new Map<string, string>();
    for (const n of m.flow.nodes) {
      const ids = n.type === "span" || n.type === "turn" || n.type === "fold" ? n.data.entryIds : [n.data.entryId];
      for (const id of ids) {
        expect(shown.has(id), id).toBe(false);
        shown.set(id, n.id);
      }
    }
    for (const [entry, node] of shown) expect(m.flow.nodeOf.get(entry)).toBe(node);
    expect(shown.size).toBeLessThanOrEqual(session.entries.length);
    // The current leaf's turn, first-kept and labelled turns are never inside a span.
    const leafNode = m.flow.nodes.find((n) => n.data.isLeaf)!;
    expect(leafNode.type).not.toBe("span");
    for (const s of spans) {
      if (s.type !== "span") continue;
      expect(s.data.lastOrdinal).toBeGreaterThan(s.data.firstOrdinal);
      expect(s.data.text).toBe(`turns ${s.data.firstOrdinal}–${s.data.lastOrdinal}`);
      expect(s.data.sizeShare).toBeGreaterThan(0);
    }
  });

  it("an expanded span shows its turns again", () => {
    const { model: m } = model(10_000);
    const span = m.flow.nodes.find((n) => n.type === "span")!;
    const { model: open } = model(10_000, new Set([span.id]));
    expect(open.flow.nodes.some((n) => n.id === span.id)).toBe(false);
    if (span.type === "span") expect(open.flow.nodeOf.get(span.data.entryIds[0]!)).toMatch(/^turn:/);
  });
});
