/**
 * SessionTree over shared, already-committed state (lib/db/read-model): addCommitted, view, fork
 * and replaceEntries. The context they give must equal a fresh tree's (session-engine.md §2).
 */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "@/lib/session/context";
import { assistantEntry, buildTree, header, labelEntry, messageEntry, userEntry } from "@/test/session-factories";
import { SessionTree } from "@/lib/session/tree/tree";
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";

const base = (): SessionEntry[] => [userEntry("1", null, "q"), assistantEntry("2", "1", "a"), userEntry("3", "2", "more")];
const more = (): SessionEntry[] => [assistantEntry("4", "3", "b"), userEntry("5", "2", "side"), labelEntry("6", "4", "4", "kept")];

describe("addCommitted", () => {
  it("indexes entries with ids as loading would, without moving the leaf or telling listeners", () => {
    const all = [...base(), ...more()];
    const tree = buildTree(all.slice(0, 3));
    let told = 0;
    tree.onAppend(() => told++);
    tree.onLeafChange(() => told++);
    tree.addCommitted(all.slice(3));
    expect(tree.getLeafId()).toBe("3");
    expect(told).toBe(0);
    const fresh = new SessionTree(header(), all);
    expect(tree.getEntries()).toEqual(fresh.getEntries());
    expect(tree.getChildren("2").map((e) => e.id)).toEqual(["3", "5"]);
    expect(tree.getLabel("4")).toBe("kept");
    tree.branch("4");
    fresh.branch("4");
    expect(tree.buildContext()).toEqual(fresh.buildContext());
  });

  it("refuses a duplicate id", () => {
    const tree = buildTree(base());
    expect(() => tree.addCommitted([userEntry("2", "1", "again")])).toThrow("Duplicate entry id 2");
  });
});

describe("view", () => {
  it("reads the shared entries at its own leaf and refuses appends", () => {
    const tree = buildTree(base());
    const view = tree.view("2");
    expect(view.getLeafId()).toBe("2");
    expect(tree.getLeafId()).toBe("3");
    expect(view.buildContext()).toEqual(buildSessionContext(base(), "2"));
    expect(() => view.appendMessage({ role: "user", content: "x", timestamp: 0 })).toThrow("read-only");
    expect(() => view.addCommitted(more())).toThrow("read-only");
    view.branch("1");
    expect(tree.getLeafId()).toBe("3");
    // Entries the shared tree gains later show in the view.
    tree.addCommitted(more());
    expect(view.getEntry("4")?.id).toBe("4");
    expect(view.getEntryCount()).toBe(6);
  });
});

describe("fork", () => {
  it("is independent: appends to the fork never reach the original, entry objects are shared", () => {
    const tree = buildTree(base());
    const fork = tree.fork();
    expect(fork.getLeafId()).toBe("3");
    fork.appendMessage({ role: "user", content: "new", timestamp: 0 });
    expect(fork.getEntryCount()).toBe(4);
    expect(tree.getEntryCount()).toBe(3);
    expect(tree.getChildren("3")).toEqual([]);
    expect(fork.getEntry("1")).toBe(tree.getEntry("1"));
  });
});

describe("replaceEntries", () => {
  it("swaps entry objects everywhere (list, index, children) without touching the old objects", () => {
    const result = { role: "toolResult", toolCallId: "t", toolName: "bash", content: [{ type: "text", text: "long" }], isError: false, timestamp: 0 };
    const entries = [userEntry("1", null, "q"), messageEntry("2", "1", result as ToolResultMessage), userEntry("3", "2", "next")];
    const tree = buildTree(entries);
    const fork = tree.fork();
    const old = fork.getEntry("2")!;
    const next = { ...old, message: { ...result, content: [{ type: "text", text: "[pruned]" }], prunedAt: 5 } } as SessionEntry;
    fork.replaceEntries([next]);
    expect(fork.getEntry("2")).toBe(next);
    expect(fork.getEntries()[1]).toBe(next);
    expect(fork.getChildren("1")[0]).toBe(next);
    expect(fork.buildContext().messages[1]).toBe((next as { message: unknown }).message);
    expect(tree.getEntry("2")).toBe(old);
    expect((old as { message: ToolResultMessage }).message.content).toEqual([{ type: "text", text: "long" }]);
  });

  it("refuses unknown ids and a changed parent", () => {
    const tree = buildTree(base());
    expect(() => tree.replaceEntries([userEntry("9", null, "x")])).toThrow("Entry 9 not found");
    expect(() => tree.replaceEntries([userEntry("3", "1", "x")])).toThrow("keeps parent");
  });
});
