/**
 * The embedded rows equal the engine's navigator for a generated session: order, depth and
 * row text (session-engine.md §16.1–16.2), per-filter visibility and search (§16.3), active path and leaf.
 */
import { describe, expect, it } from "vitest";
import { buildExportData, rowKind } from "@/lib/export-html/export-data";
import { FLAG_ACTIVE, FLAG_FIRST_KEPT, FLAG_LEAF } from "@/lib/export-html/flags";
import { generateSession } from "@/test/generators/session";
import { SessionTree } from "@/lib/session/tree/tree";
import { displayText, FILTERS, filterTag, flattenTree, parseSearch } from "@/lib/session/tree/tree-view";

const s = generateSession({ seed: 42, entries: 200, branches: 3, compactions: true, labels: 5 });
const leafId = s.entries.at(-1)!.id;
const data = buildExportData({ header: s.header, entries: s.entries, leafId, title: "T", exportedAt: new Date(0) });
const roots = new SessionTree(s.header, s.entries).getTree();
const engineRows = flattenTree(roots, { leafId, filter: "all" });

describe("buildExportData", () => {
  it("the generated session has branches, compactions and labels", () => {
    expect(engineRows.some((r) => r.depth > 0)).toBe(true);
    expect(s.entries.some((e) => e.type === "compaction")).toBe(true);
    expect(engineRows.some((r) => r.label)).toBe(true);
  });

  it("rows have the engine's order, indentation, row text and parent links (§16.1, §16.2)", () => {
    expect(data.rows).toHaveLength(s.entries.length);
    expect(data.rows.map((r) => s.entries[r[0]]!.id)).toEqual(engineRows.map((r) => r.entry.id));
    expect(data.rows.map((r) => r[1])).toEqual(engineRows.map((r) => r.depth));
    expect(data.rows.map((r) => r[2])).toEqual(engineRows.map((r) => r.parentIndex));
    expect(data.rows.map((r) => r[5])).toEqual(engineRows.map((r) => displayText(r.text, r.label)));
    expect(data.rows.map((r) => r[4])).toEqual(engineRows.map((r) => rowKind(r.entry)));
  });

  it("marks the active path, the current leaf and first-kept entries", () => {
    expect(data.rows.map((r) => (r[3] & FLAG_ACTIVE) !== 0)).toEqual(engineRows.map((r) => r.isActive));
    expect(data.rows.filter((r) => r[3] & FLAG_LEAF).map((r) => s.entries[r[0]]!.id)).toEqual([leafId]);
    const kept = new Set(s.entries.flatMap((e) => (e.type === "compaction" ? [e.firstKeptEntryId] : [])));
    expect(data.rows.filter((r) => r[3] & FLAG_FIRST_KEPT).map((r) => s.entries[r[0]]!.id).sort()).toEqual([...kept].sort());
    expect(data.rows.filter((r) => r[4] === "compaction").every((r) => /^(\[[^\]]*\] )?\[compaction: \d+k tokens\]$/.test(r[5]))).toBe(true);
  });

  it.each(FILTERS.map((f, bit) => [f, bit] as const))("filter bit %s equals the engine's visibility (§16.3)", (filter, bit) => {
    const engine = flattenTree(roots, { leafId, filter });
    expect(data.rows.map((r) => (r[3] & (1 << bit)) !== 0)).toEqual(engine.map((r) => r.visible));
    expect(data.filters[bit]).toEqual({ name: filter, tag: filterTag(filter) });
  });

  const someLabel = engineRows.find((r) => r.label)?.label ?? "?";
  it.each(["user", "src tests", "COMPACTION", "branch summary", someLabel, "no-such-word"])(
    "search %j with the default filter matches the engine's (§16.3)",
    (query) => {
      const engine = flattenTree(roots, { leafId, filter: "default", search: query });
      const tokens = parseSearch(query);
      const ours = data.rows.map((r, i) => (r[3] & 1) !== 0 && tokens.every((t) => data.search[i]!.includes(t)));
      expect(ours).toEqual(engine.map((r) => r.visible));
      expect(ours.some(Boolean)).toBe(query !== "no-such-word");
    },
  );

  it("has no active path when the leaf is null", () => {
    const none = buildExportData({ header: s.header, entries: s.entries, leafId: null, title: "T" });
    expect(none.rows.some((r) => r[3] & (FLAG_ACTIVE | FLAG_LEAF))).toBe(false);
    expect(none.emptyText).toBe("No entries found");
  });
});
