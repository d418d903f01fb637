import { describe, expect, it } from "vitest";
import { compactionRegions } from "@/components/tree/layout/compaction-regions";
import { compaction, reply, user } from "@/test/tree-sessions";
import { buildTreeNodes } from "@/lib/session/tree/tree-build";
import { flattenTree } from "@/lib/session/tree/tree-flatten";
import type { SessionEntry } from "@/lib/session/types";

function regions(entries: SessionEntry[], leafId: string) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const rows = flattenTree(buildTreeNodes(entries, byId, new Map()), { leafId });
  const rowOf = new Map(rows.map((r, i) => [r.entry.id, i]));
  const { summarisedBy, firstKept } = compactionRegions(rows, rowOf);
  const by: Record<string, string[]> = {};
  rows.forEach((r, i) => {
    if (summarisedBy[i]) by[r.entry.id] = summarisedBy[i]!;
  });
  const kept: Record<string, string> = {};
  for (const [c, k] of firstKept) kept[rows[c]!.entry.id] = rows[k]!.entry.id;
  return { by, kept };
}

describe("compactionRegions (session-engine.md §5.4 boundaries, §2 step 7)", () => {
  it("summarises from the previous compaction (exclusive) up to firstKeptEntryId (exclusive)", () => {
    const entries = [
      user("u1", null),
      reply("a1", "u1"),
      compaction("C1", "a1", "a1"),
      user("u2", "C1"),
      reply("a2", "u2"),
      compaction("C2", "a2", "a2"),
    ];
    expect(regions(entries, "C2")).toEqual({
      by: { u1: ["C1"], u2: ["C2"] },
      kept: { C1: "a1", C2: "a2" },
    });
  });

  it("lists every compaction whose region holds a shared ancestor (two branches)", () => {
    // u1 → a1 → {u2 → Cx (keeps u2), u3 → Cy (keeps u3)}
    const entries = [
      user("u1", null),
      reply("a1", "u1"),
      user("u2", "a1"),
      compaction("Cx", "u2", "u2"),
      user("u3", "a1"),
      compaction("Cy", "u3", "u3"),
    ];
    const { by } = regions(entries, "Cy");
    expect(by.u1?.sort()).toEqual(["Cx", "Cy"]);
    expect(by.a1?.sort()).toEqual(["Cx", "Cy"]);
    expect(by.u2).toBeUndefined();
    expect(by.u3).toBeUndefined();
  });

  it("has an empty region when the kept entry precedes the previous compaction", () => {
    const entries = [
      user("u1", null),
      reply("a1", "u1"),
      compaction("C1", "a1", "a1"),
      user("u2", "C1"),
      compaction("C2", "u2", "a1"),
    ];
    expect(regions(entries, "C2").by).toEqual({ u1: ["C1"] });
  });

  it("walks a 100,000-deep chain without recursion", () => {
    const entries: SessionEntry[] = [user("n0", null)];
    for (let i = 1; i < 100_000; i++) entries.push(reply(`n${i}`, `n${i - 1}`));
    entries.push(compaction("C", "n99999", "n99990"));
    const { by } = regions(entries, "C");
    expect(Object.keys(by)).toHaveLength(99_990);
  });
});
