/**
 * SessionTree.fork: a writer's tree layered over a shared one (tree-index.ts layerIndex). What
 * a fork reads must equal a fresh tree built over its own entry list, whatever the shared tree
 * gains meanwhile (the read model commits copies of the fork's entries and other writers'
 * entries to it), and nothing the fork does may reach the shared tree.
 */
import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/random";
import { LayeredMap } from "@/lib/session/tree/layered-map";
import { SessionTree } from "@/lib/session/tree/tree";
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";
import { buildTree, header, labelEntry, messageEntry, userEntry } from "@/test/session-factories";

function toolResult(id: string, parentId: string, text: string): SessionEntry {
  const message = { role: "toolResult", toolCallId: `c${id}`, toolName: "bash", content: [{ type: "text", text }], isError: false, timestamp: 0 };
  return messageEntry(id, parentId, message as ToolResultMessage);
}

/** What a reader of the fork can observe, restricted to the fork's own entry list. */
function observed(tree: SessionTree) {
  const ids = new Set(tree.getEntries().map((e) => e.id));
  return {
    entries: tree.getEntries(),
    leaf: tree.getLeafId(),
    context: tree.buildContext(),
    branch: tree.getBranch().map((e) => e.id),
    children: [...ids].map((id) => tree.getChildren(id).filter((c) => ids.has(c.id))),
    labels: [...tree.getLabels()].filter(([id]) => ids.has(id)),
    tree: tree.getTree(),
  };
}

describe("LayeredMap", () => {
  it("reads through to the base, writes and deletes only its own layer, iterates base order then own", () => {
    const base = new Map([["a", 1], ["b", 2], ["c", 3]]);
    const map = new LayeredMap(base);
    map.set("b", 20);
    map.set("d", 4);
    map.delete("a");
    expect(map.get("a")).toBeUndefined();
    expect(map.has("a")).toBe(false);
    expect(map.get("b")).toBe(20);
    expect(map.get("c")).toBe(3);
    expect([...map]).toEqual([["c", 3], ["b", 20], ["d", 4]]);
    expect(map.size).toBe(3);
    expect([...base]).toEqual([["a", 1], ["b", 2], ["c", 3]]);
    map.set("a", 10);
    expect([...map.keys()]).toEqual(["c", "b", "d", "a"]);
    map.clear();
    expect([...map.values()]).toEqual([]);
    expect(map.has("c")).toBe(false);
  });
});

describe("fork layered over a shared tree", () => {
  it("sees replacements in children and leaves the shared tree untouched", () => {
    const shared = buildTree([userEntry("1", null, "q"), toolResult("2", "1", "long"), userEntry("3", "2", "next")]);
    const fork = shared.fork();
    const old = fork.getEntry("2")!;
    const next = { ...old, message: { ...(old as { message: ToolResultMessage }).message, content: [{ type: "text", text: "[pruned]" }] } } as SessionEntry;
    fork.replaceEntries([next]);
    fork.appendMessage({ role: "user", content: "own", timestamp: 0 });
    expect(fork.getChildren("1")).toEqual([next]);
    expect(shared.getChildren("1")[0]).toBe(old);
    expect(shared.getEntryCount()).toBe(3);
    expect(shared.getChildren("3")).toEqual([]);
  });

  it("matches a fresh tree over its own entries through random appends, prunes, labels and shared commits", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = createRng(seed);
      const pick = <T,>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
      let n = 0;
      const id = () => `s${seed}-${n++}`;
      const start: SessionEntry[] = [userEntry(id(), null, "root")];
      for (let i = 0; i < 30; i++) {
        const parent = pick(start).id;
        start.push(rng() < 0.3 ? toolResult(id(), parent, `out ${i}`) : rng() < 0.15 ? labelEntry(id(), parent, pick(start).id, `L${i}`) : userEntry(id(), parent, `m ${i}`));
      }
      const shared = new SessionTree(header(), start);
      const sharedBefore = shared.getEntries().slice();
      const startIds = new Set(start.map((e) => e.id));
      const fork = shared.fork();
      const committed = new Set<string>();

      for (let step = 0; step < 40; step++) {
        const r = rng();
        const own = fork.getEntries();
        if (r < 0.35) {
          fork.appendMessage({ role: "user", content: `fork ${step}`, timestamp: step });
        } else if (r < 0.45) {
          fork.branch(pick(own).id);
        } else if (r < 0.55) {
          fork.appendLabelChange(pick(own).id, rng() < 0.3 ? undefined : `F${step}`);
        } else if (r < 0.65) {
          const results = own.filter((e) => e.type === "message" && e.message.role === "toolResult");
          if (results.length > 0) {
            const old = pick(results) as SessionEntry & { message: ToolResultMessage };
            fork.replaceEntries([{ ...old, message: { ...old.message, content: [{ type: "text", text: `pruned ${step}` }], prunedAt: step } } as SessionEntry]);
          }
        } else if (r < 0.85) {
          // The read model commits copies of what the fork appended (as the database returns them).
          const pending = own.filter((e) => !startIds.has(e.id) && !committed.has(e.id));
          if (pending.length > 0) {
            for (const e of pending) committed.add(e.id);
            shared.addCommitted(pending.map((e) => JSON.parse(JSON.stringify(e)) as SessionEntry));
          }
        } else {
          // Another writer's entry on the shared tree.
          shared.addCommitted([userEntry(id(), pick(shared.getEntries()).id, `other ${step}`)]);
        }
        const fresh = new SessionTree(header(), fork.getEntries());
        if (fork.getLeafId() !== null) fresh.branch(fork.getLeafId()!);
        expect(observed(fork), `seed ${seed} step ${step}`).toEqual(observed(fresh));
      }
      // Nothing of the fork reached the shared tree except through addCommitted.
      for (const e of sharedBefore) expect(shared.getEntry(e.id)).toBe(e);
      expect(shared.getEntries().slice(0, sharedBefore.length)).toEqual(sharedBefore);
    }
  });

  it("a fork of a fork has an index of its own (layers stay one deep)", () => {
    const shared = buildTree([userEntry("1", null, "q"), userEntry("2", "1", "a")]);
    const first = shared.fork();
    first.appendMessage({ role: "user", content: "x", timestamp: 0 });
    const second = first.fork();
    second.appendMessage({ role: "user", content: "y", timestamp: 0 });
    expect(second.getBranch().map((e) => e.type === "message" && e.message.role === "user" ? e.message.content : "")).toEqual(["q", "a", "x", "y"]);
    expect(first.getEntryCount()).toBe(3);
    expect(first.getChildren(first.getLeafId()!)).toEqual([]);
  });
});
