/**
 * The canvas side of pins and of the compaction items (docs/engine.md "Arbor extensions around compaction"): the pin mark on the node and
 * what the entry menu offers per node, and where "Redo compaction" returns.
 */
import { describe, expect, it } from "vitest";
import { newestBelow } from "@/components/session/compaction-menu";
import { compactedSession, compaction, reply, user } from "@/test/tree-sessions";
import { menuFacts } from "@/components/tree/tree-context";
import { toFlow } from "@/components/tree/layout/to-flow";
import type { TreeNode } from "@/components/tree/types";
import { pinEntryFields } from "@/lib/session/pins";
import { resolveSkeleton } from "@/lib/session-view/skeleton-resolve";
import type { SessionEntry } from "@/lib/session/types";

const pin = (id: string, parentId: string, targetId: string, pinned: boolean) =>
  ({ ...pinEntryFields(targetId, pinned), id, parentId, timestamp: "2030-01-01T00:00:00.000Z" }) as SessionEntry;
const node = (nodes: TreeNode[], id: string) => nodes.find((n) => n.id === id)!;

describe("pin mark on the canvas", () => {
  it("marks the pinned node (the last pin entry wins) and no other", () => {
    const entries = [user("u1", null), reply("a1", "u1"), pin("p1", "a1", "u1", true), pin("p2", "p1", "a1", true), pin("p3", "p2", "a1", false)];
    const { nodes } = toFlow(entries, { leafId: "p3" });
    expect(node(nodes, "u1").data.pinned).toBe(true);
    expect(node(nodes, "a1").data.pinned).toBeUndefined();
    // Pin entries themselves are settings-like: hidden by the default filter.
    expect(nodes.some((n) => n.id === "p1")).toBe(false);
  });
});

describe("entry menu items", () => {
  it("offers Pin/Unpin on messages and branch summaries, and the compaction items on compactions", () => {
    const entries = [...compactedSession(), pin("p1", "a5", "u5", true)];
    const { nodes } = toFlow(entries, { leafId: "p1", filter: "all" });
    const facts = (id: string) => {
      const n = node(nodes, id);
      return menuFacts(n.type, n.data as Parameters<typeof menuFacts>[1]);
    };
    expect(facts("u5")).toEqual({ pin: "unpin" });
    expect(facts("a4")).toEqual({ pin: "pin" });
    expect(facts("C2")).toEqual({ compaction: { active: true } });
    expect(facts("p1")).toEqual({}); // a settings-like entry has nothing to pin
  });

  it("an off-path compaction offers Redo, which returns to the newest entry of its branch", () => {
    const entries = [user("u1", null), reply("a1", "u1"), compaction("C1", "a1", "u1"), user("u2", "C1"), reply("a2", "u2")];
    const { nodes } = toFlow(entries, { leafId: "a1" });
    const c = node(nodes, "C1");
    // Off the current path: its branch can be archived too (session-engine.md §19.4).
    expect(menuFacts(c.type, c.data)).toEqual({ compaction: { active: false }, archive: "archive" });
    expect(newestBelow(resolveSkeleton(entries), "C1")).toBe("a2");
    expect(newestBelow(resolveSkeleton(entries), "a2")).toBe("a2");
  });
});
