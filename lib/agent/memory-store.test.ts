import { describe, expect, it } from "vitest";
import { MemoryAgentStore } from "@/lib/agent/memory-store";
import { ConflictError, isConflictError } from "@/lib/agent/ports";
import { createTreeCommitter } from "@/lib/agent/tree-committer";
import { assistantEntry, buildTree, header, sequentialIds, toolResultMsg, userEntry, userMsg } from "@/test/session-factories";
import { MAX_PERSIST_CHARS, PERSIST_TRUNCATION_NOTICE } from "@/lib/session/file/sanitize";
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";

const base = () => [userEntry("u1", null, "hi"), assistantEntry("a1", "u1", "hello")];

describe("MemoryAgentStore", () => {
  it("appends a batch and moves the leaf when expectedLeafId matches", async () => {
    const store = new MemoryAgentStore({ header: header(), entries: base() });
    expect(store.getLeafId()).toBe("a1");
    await store.commit({ expectedLeafId: "a1", entries: [userEntry("u2", "a1", "more")], newLeafId: "u2" });
    expect(store.getEntries().map((e) => e.id)).toEqual(["u1", "a1", "u2"]);
    expect(store.getLeafId()).toBe("u2");
    expect(store.getCommitCount()).toBe(1);
  });

  it("rejects a stale expectedLeafId with ConflictError and writes nothing", async () => {
    const store = new MemoryAgentStore({ header: header(), entries: base() });
    const attempt = store.commit({ expectedLeafId: "u1", entries: [userEntry("u2", "u1", "x")], newLeafId: "u2" });
    await expect(attempt).rejects.toBeInstanceOf(ConflictError);
    await attempt.catch((err: unknown) => expect(isConflictError(err)).toBe(true));
    expect(store.getEntries()).toHaveLength(2);
    expect(store.getLeafId()).toBe("a1");
  });

  it("validates the whole batch before writing (duplicate id, unknown parent, unknown leaf)", async () => {
    const store = new MemoryAgentStore({ header: header(), entries: base() });
    const ok = userEntry("u2", "a1", "x");
    await expect(store.commit({ expectedLeafId: "a1", entries: [ok, userEntry("a1", "u2", "dup")], newLeafId: "a1" })).rejects.toThrow(
      "Entry a1 already exists",
    );
    await expect(store.commit({ expectedLeafId: "a1", entries: [ok, userEntry("u3", "zz", "x")], newLeafId: "u3" })).rejects.toThrow(
      "Parent zz of entry u3 not found",
    );
    await expect(store.commit({ expectedLeafId: "a1", entries: [], newLeafId: "nope" })).rejects.toThrow("Entry nope not found");
    expect(store.getEntries()).toHaveLength(2);
  });

  it("stores a sanitized copy (session-engine.md §1.9): later in-place changes do not leak in", async () => {
    const store = new MemoryAgentStore({ header: header(), entries: base() });
    const entry = { ...userEntry("u2", "a1", "x".repeat(MAX_PERSIST_CHARS + 10)), partialJson: "{" } as SessionEntry;
    await store.commit({ expectedLeafId: "a1", entries: [entry], newLeafId: "u2" });
    (entry as { extra?: number }).extra = 1;
    const stored = store.getEntry("u2")!;
    expect(stored).not.toHaveProperty("partialJson");
    expect(stored).not.toHaveProperty("extra");
    const content = stored.type === "message" && stored.message.role === "user" ? stored.message.content : "";
    expect(typeof content === "string" && content.endsWith(PERSIST_TRUNCATION_NOTICE)).toBe(true);
  });

  it("persistPrune rewrites the result and keeps the first original", async () => {
    const tr = { type: "message", id: "t1", parentId: "a1", timestamp: "2025-01-01T00:00:09.000Z", message: toolResultMsg("c1", "big output") } as SessionEntry;
    const store = new MemoryAgentStore({ header: header(), entries: [...base(), tr] });
    const pruned: ToolResultMessage = { ...toolResultMsg("c1", "[Output truncated - 3 tokens]"), prunedAt: 5 };
    await store.persistPrune([{ entryId: "t1", originalContent: [{ type: "text", text: "big output" }], message: pruned }]);
    await store.persistPrune([{ entryId: "t1", originalContent: pruned.content, message: pruned }]);
    expect(store.getEntry("t1")).toMatchObject({ message: { prunedAt: 5, content: [{ text: "[Output truncated - 3 tokens]" }] } });
    expect(store.getPrunedOriginal("t1")).toEqual([{ type: "text", text: "big output" }]);
    await expect(store.persistPrune([{ entryId: "u1", originalContent: [], message: pruned }])).rejects.toThrow(/not a stored tool result/);
  });

  it("loadTree restores the stored leaf (also null)", async () => {
    const store = new MemoryAgentStore({ header: header(), entries: base(), leafId: "u1" });
    expect(store.loadTree().getLeafId()).toBe("u1");
    await store.commit({ expectedLeafId: "u1", entries: [], newLeafId: null });
    expect(store.loadTree().getLeafId()).toBeNull();
  });
});

describe("createTreeCommitter", () => {
  it("commits appended entries with the previous leaf as expectedLeafId", async () => {
    const tree = buildTree(base(), { newId: sequentialIds("n") });
    const store = MemoryAgentStore.fromTree(tree);
    const committer = createTreeCommitter(tree, store);
    tree.appendMessage(userMsg("one"));
    tree.appendMessage(userMsg("two"));
    expect(committer.pendingEntries().map((e) => e.id)).toEqual(["n1", "n2"]);
    expect(await committer.commit()).toHaveLength(2);
    expect(store.getLeafId()).toBe("n2");
    expect(committer.committedLeafId).toBe("n2");
    expect(committer.isDirty()).toBe(false);
    expect(await committer.commit()).toEqual([]);
    expect(store.getCommitCount()).toBe(1);
  });

  it("commits a leaf move without entries", async () => {
    const tree = buildTree(base());
    const store = MemoryAgentStore.fromTree(tree);
    const committer = createTreeCommitter(tree, store);
    tree.branch("u1");
    expect(committer.isDirty()).toBe(true);
    await committer.commit();
    expect(store.getLeafId()).toBe("u1");
  });

  it("keeps entries pending when the store refuses, so nothing is lost silently", async () => {
    const tree = buildTree(base(), { newId: sequentialIds("n") });
    const store = MemoryAgentStore.fromTree(tree);
    const committer = createTreeCommitter(tree, store);
    await store.commit({ expectedLeafId: "a1", entries: [], newLeafId: "u1" });
    tree.appendMessage(userMsg("lost?"));
    await expect(committer.commit()).rejects.toBeInstanceOf(ConflictError);
    expect(committer.pendingEntries()).toHaveLength(1);
    expect(committer.committedLeafId).toBe("a1");
  });

  it("serializes concurrent commits in call order", async () => {
    const tree = buildTree(base(), { newId: sequentialIds("n") });
    const store = MemoryAgentStore.fromTree(tree);
    const committer = createTreeCommitter(tree, store);
    tree.appendMessage(userMsg("a"));
    const first = committer.commit();
    tree.appendMessage(userMsg("b"));
    const second = committer.commit();
    await Promise.all([first, second]);
    expect(store.getEntries().map((e) => e.id)).toEqual(["u1", "a1", "n1", "n2"]);
    expect(store.getLeafId()).toBe("n2");
  });
});
