import { describe, expect, it, vi } from "vitest";
import {
  assistantEntry,
  assistantMsg,
  BASE_TIME,
  buildTree,
  chain,
  emptyTree,
  fixedClock,
  header,
  isoAt,
  labelEntry,
  sequentialIds,
  userEntry,
  userMsg,
} from "@/test/session-factories";
import { SessionTree } from "@/lib/session/tree/tree";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";

const ids = (entries: readonly SessionEntry[]) => entries.map((e) => e.id);

describe("SessionTree loading (session-engine.md §1.6)", () => {
  it("an empty session has a null leaf and no branch", () => {
    const tree = emptyTree();
    expect(tree.getLeafId()).toBeNull();
    expect(tree.getLeafEntry()).toBeUndefined();
    expect(tree.getBranch()).toEqual([]);
    expect(tree.getTree()).toEqual([]);
  });

  it("the leaf on load is the last entry in file order, even on another branch", () => {
    const tree = buildTree([
      userEntry("1", null, "q"),
      assistantEntry("2", "1", "a"),
      userEntry("3", "2", "deep"),
      userEntry("4", "3", "deeper"),
      userEntry("5", "2", "latest, but shallow"),
    ]);
    expect(tree.getLeafId()).toBe("5");
    expect(ids(tree.getBranch())).toEqual(["1", "2", "5"]);
  });

  it("getEntries keeps file order; getEntry looks up by id; getChildren lists direct children", () => {
    const entries = [userEntry("1", null, "q"), assistantEntry("2", "1", "a"), userEntry("3", "1", "b")];
    const tree = buildTree(entries);
    expect(ids(tree.getEntries())).toEqual(["1", "2", "3"]);
    expect(tree.getEntry("2")).toBe(entries[1]);
    expect(tree.getEntry("nope")).toBeUndefined();
    expect(ids(tree.getChildren("1"))).toEqual(["2", "3"]);
    expect(tree.getChildren("3")).toEqual([]);
    expect(tree.getHeader()).toEqual(header());
  });

  it("rejects duplicate and missing ids (invariant: loadSession filters them)", () => {
    expect(() => new SessionTree(header(), [userEntry("1", null, "a"), userEntry("1", null, "b")])).toThrow(
      "Duplicate entry id 1",
    );
    const noId = { ...userEntry("x", null, "a"), id: undefined } as unknown as SessionEntry;
    expect(() => new SessionTree(header(), [noId])).toThrow(/without an id/);
  });
});

describe("getBranch (session-engine.md §1.6)", () => {
  const tree = () =>
    buildTree([userEntry("1", null, "q"), assistantEntry("2", "1", "a"), userEntry("3", "2", "b"), userEntry("4", "gone", "o")]);

  it("returns the path root first, from the leaf by default or from a given entry", () => {
    const t = tree();
    t.branch("3");
    expect(ids(t.getBranch())).toEqual(["1", "2", "3"]);
    expect(ids(t.getBranch("2"))).toEqual(["1", "2"]);
  });

  it("returns [] for null or an unknown id", () => {
    expect(tree().getBranch(null)).toEqual([]);
    expect(tree().getBranch("nope")).toEqual([]);
  });

  it("a missing parent ends the walk", () => {
    expect(ids(tree().getBranch("4"))).toEqual(["4"]);
  });

  it("a self-parented entry is a one-entry path", () => {
    expect(ids(buildTree([userEntry("s", "s", "self")]).getBranch())).toEqual(["s"]);
  });
});

describe("getTree (session-engine.md §1.6)", () => {
  it("roots are parentId null, self-parented entries and orphans, in file order", () => {
    const tree = buildTree([
      userEntry("1", null, "root"),
      userEntry("2", "missing", "orphan"),
      userEntry("3", "3", "self"),
      assistantEntry("4", "1", "child"),
    ]);
    const roots = tree.getTree();
    expect(roots.map((n) => n.entry.id)).toEqual(["1", "2", "3"]);
    expect(roots[0]!.children.map((n) => n.entry.id)).toEqual(["4"]);
    expect(roots[2]!.children).toEqual([]);
  });

  it("sorts children by timestamp ascending, keeping file order for ties", () => {
    const tree = buildTree([
      userEntry("r", null, "root", { timestamp: isoAt(0) }),
      userEntry("late", "r", "c", { timestamp: isoAt(30) }),
      userEntry("tieA", "r", "c", { timestamp: isoAt(10) }),
      userEntry("early", "r", "c", { timestamp: isoAt(5) }),
      userEntry("tieB", "r", "c", { timestamp: isoAt(10) }),
    ]);
    expect(tree.getTree()[0]!.children.map((n) => n.entry.id)).toEqual(["early", "tieA", "tieB", "late"]);
  });

  it("attaches labels to nodes", () => {
    const tree = buildTree(chain(userEntry("1", null, "q"), labelEntry("2", null, "1", "start")));
    const root = tree.getTree()[0]!;
    expect(root.label).toBe("start");
    expect(root.children[0]!.label).toBeUndefined();
  });

  it("builds a 100k-deep chain without recursion", () => {
    const entries: SessionEntry[] = [];
    for (let i = 0; i < 100_000; i++) entries.push(userEntry(`e${i}`, i === 0 ? null : `e${i - 1}`, "x"));
    const roots = buildTree(entries).getTree();
    expect(roots).toHaveLength(1);
    let depth = 1;
    for (let n = roots[0]!; n.children[0]; n = n.children[0]) depth++;
    expect(depth).toBe(100_000);
  });
});

describe("appenders (session-engine.md §1.6)", () => {
  it("every appender chains parentId and advances the leaf", () => {
    const tree = emptyTree({ newId: sequentialIds() });
    const appended = [
      tree.appendMessage(userMsg("hi")),
      tree.appendThinkingLevelChange("high"),
      tree.appendModelChange("openai/gpt-5", "smol"),
      tree.appendCompaction("S", "short", "n1", 42, { readFiles: [], modifiedFiles: [] }, true, { k: 1 }),
      tree.appendCustomEntry("ext", { a: 1 }),
      tree.appendCustomMessageEntry("note", "text", true, { d: 1 }),
      tree.appendLabelChange("n1", "first"),
      tree.appendModeChange("plan", { m: 1 }),
    ];
    expect(appended).toEqual(["n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"]);
    const entries = tree.getEntries();
    expect(entries.map((e) => e.parentId)).toEqual([null, ...appended.slice(0, -1)]);
    expect(tree.getLeafId()).toBe("n8");
    expect(entries.map((e) => e.type)).toEqual([
      "message",
      "thinking_level_change",
      "model_change",
      "compaction",
      "custom",
      "custom_message",
      "label",
      "mode_change",
    ]);
  });

  it("stores the given fields, omits absent optionals, and stamps the clock", () => {
    const tree = emptyTree({ newId: sequentialIds(), now: fixedClock(BASE_TIME) });
    const c = tree.getEntry(tree.appendCompaction("S", undefined, "x", 10))!;
    expect(c).toEqual({
      type: "compaction",
      id: "n1",
      parentId: null,
      timestamp: new Date(BASE_TIME).toISOString(),
      summary: "S",
      firstKeptEntryId: "x",
      tokensBefore: 10,
    });
    const m = tree.getEntry(tree.appendModelChange("a/b"))!;
    expect(m).not.toHaveProperty("role");
    expect(m.timestamp).toBe(new Date(BASE_TIME + 1000).toISOString());
    const cm = tree.getEntry(tree.appendCustomMessageEntry("t", [{ type: "text", text: "x" }], false))!;
    expect(cm).toMatchObject({ customType: "t", content: [{ type: "text", text: "x" }], display: false });
    expect(cm).not.toHaveProperty("details");
  });

  it("appendMessage rejects compactionSummary and branchSummary messages", () => {
    const tree = emptyTree();
    const summary = { role: "compactionSummary", summary: "s", tokensBefore: 1, timestamp: 0 } as AgentMessage;
    const branch = { role: "branchSummary", summary: "s", fromId: "root", timestamp: 0 } as AgentMessage;
    expect(() => tree.appendMessage(summary)).toThrow(/compactionSummary/);
    expect(() => tree.appendMessage(branch)).toThrow(/branchSummary/);
    expect(tree.getEntries()).toHaveLength(0);
    expect(tree.getLeafId()).toBeNull();
  });

  it("default ids are 8 hex characters, unique within the session", () => {
    const tree = emptyTree();
    const made = new Set<string>();
    for (let i = 0; i < 200; i++) made.add(tree.appendMessage(userMsg(`m${i}`)));
    expect(made.size).toBe(200);
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{8}$/);
  });

  it("passes existing ids and dangling parent ids to the id generator as taken", () => {
    const newId = vi.fn((taken: { has(id: string): boolean }) => {
      expect(taken.has("1")).toBe(true);
      expect(taken.has("ghost")).toBe(true); // named only as a missing parent
      expect(taken.has("free")).toBe(false);
      return "free";
    });
    const tree = buildTree([userEntry("1", null, "q"), userEntry("2", "ghost", "orphan")], { newId });
    expect(tree.appendMessage(userMsg("x"))).toBe("free");
    expect(newId).toHaveBeenCalledOnce();
  });

  it("a generic appendEntry keeps unknown types and fields", () => {
    const tree = emptyTree({ newId: sequentialIds() });
    const e = tree.appendEntry({ type: "future_thing", payload: [1, 2], timestamp: isoAt(9) });
    expect(e).toEqual({ type: "future_thing", id: "n1", parentId: null, timestamp: isoAt(9), payload: [1, 2] });
    expect(tree.getEntry("n1")).toBe(e);
  });
});

describe("branch, resetLeaf, branchWithSummary (session-engine.md §1.6)", () => {
  const base = () => buildTree(chain(userEntry("1", null, "q"), assistantEntry("2", null, "a")), { newId: sequentialIds() });

  it('branch("nonexistent") throws "Entry nonexistent not found"', () => {
    expect(() => base().branch("nonexistent")).toThrow("Entry nonexistent not found");
  });

  it("branch moves the leaf; the next append becomes a sibling", () => {
    const tree = base();
    tree.branch("1");
    const id = tree.appendMessage(assistantMsg("other"));
    expect(tree.getEntry(id)!.parentId).toBe("1");
    expect(ids(tree.getChildren("1"))).toEqual(["2", id]);
  });

  it("resetLeaf sets the leaf to null; the next append is a new root", () => {
    const tree = base();
    tree.resetLeaf();
    expect(tree.getLeafId()).toBeNull();
    const id = tree.appendMessage(userMsg("fresh"));
    expect(tree.getEntry(id)!.parentId).toBeNull();
    expect(tree.getTree().map((n) => n.entry.id)).toEqual(["1", id]);
  });

  it("branchWithSummary(id1, …) gives the summary parentId = id1 and makes it the leaf", () => {
    const tree = base();
    const id = tree.branchWithSummary("1", "what happened", { readFiles: ["a"], modifiedFiles: [] }, true);
    expect(tree.getLeafId()).toBe(id);
    expect(tree.getEntry(id)).toMatchObject({
      type: "branch_summary",
      parentId: "1",
      fromId: "1",
      summary: "what happened",
      details: { readFiles: ["a"], modifiedFiles: [] },
      fromExtension: true,
    });
  });

  it('branchWithSummary(null, …) makes a new root with fromId "root"', () => {
    const tree = base();
    const id = tree.branchWithSummary(null, "S");
    expect(tree.getEntry(id)).toMatchObject({ parentId: null, fromId: "root" });
    expect(tree.getEntry(id)).not.toHaveProperty("details");
  });

  it("branchWithSummary throws for an unknown id and changes nothing", () => {
    const tree = base();
    expect(() => tree.branchWithSummary("zzz", "S")).toThrow("Entry zzz not found");
    expect(tree.getLeafId()).toBe("2");
    expect(tree.getEntries()).toHaveLength(2);
  });

  it("buildContext only sees the current branch", () => {
    const tree = base();
    tree.branch("1");
    tree.appendMessage(assistantMsg("alternative"));
    const texts = tree.buildContext().messages.map((m) => (m.role === "assistant" ? m.content[0] : m.role));
    expect(texts).toEqual(["user", { type: "text", text: "alternative" }]);
  });
});

describe("labels (session-engine.md §1.6)", () => {
  it("set, last-wins, clear with undefined or empty string, and appear on tree nodes", () => {
    const tree = buildTree(chain(userEntry("1", null, "q"), assistantEntry("2", null, "a")));
    tree.appendLabelChange("1", "first");
    expect(tree.getLabel("1")).toBe("first");
    tree.appendLabelChange("1", "renamed");
    expect(tree.getLabel("1")).toBe("renamed");
    expect(tree.getTree()[0]!.label).toBe("renamed");
    tree.appendLabelChange("1", undefined);
    expect(tree.getLabel("1")).toBeUndefined();
    tree.appendLabelChange("2", "two");
    tree.appendLabelChange("2", "");
    expect(tree.getLabels()).toEqual(new Map());
  });

  it("a label entry becomes the leaf", () => {
    const tree = buildTree([userEntry("1", null, "q")]);
    const id = tree.appendLabelChange("1", "x");
    expect(tree.getLeafId()).toBe(id);
    expect(tree.getEntry(id)).toMatchObject({ type: "label", parentId: "1", targetId: "1", label: "x" });
  });

  it("label entries in a loaded file apply in file order", () => {
    const tree = buildTree([
      userEntry("1", null, "q"),
      labelEntry("2", "1", "1", "old"),
      labelEntry("3", "2", "1", "new"),
      labelEntry("4", "3", "3", "on a label"),
      labelEntry("5", "4", "4", undefined),
    ]);
    expect(tree.getLabels()).toEqual(new Map([["1", "new"], ["3", "on a label"]]));
  });

  it("an unknown target throws", () => {
    expect(() => buildTree([userEntry("1", null, "q")]).appendLabelChange("nope", "x")).toThrow("Entry nope not found");
  });

  it("labels never appear in context", () => {
    const tree = buildTree([userEntry("1", null, "q")]);
    tree.appendLabelChange("1", "bookmark");
    const ctx = tree.buildContext();
    expect(ctx.messages).toHaveLength(1);
    expect(JSON.stringify(ctx)).not.toContain("bookmark");
  });

  it("getLabels returns a copy", () => {
    const tree = buildTree(chain(userEntry("1", null, "q"), labelEntry("2", null, "1", "x")));
    tree.getLabels().clear();
    expect(tree.getLabel("1")).toBe("x");
  });
});

describe("persistence hooks", () => {
  it("onAppend sees each new entry after the leaf moved; onLeafChange sees every leaf move", () => {
    const tree = buildTree([userEntry("1", null, "q")], { newId: sequentialIds() });
    const appended: Array<[string, string | null]> = [];
    const leaves: Array<string | null> = [];
    const stopAppend = tree.onAppend((e) => appended.push([e.id, tree.getLeafId()]));
    tree.onLeafChange((id) => leaves.push(id));
    tree.appendMessage(assistantMsg("a"));
    tree.branch("1");
    tree.branch("1"); // no change, no event
    tree.resetLeaf();
    tree.branchWithSummary("1", "S");
    stopAppend();
    tree.appendMessage(userMsg("unobserved"));
    expect(appended).toEqual([
      ["n1", "n1"],
      ["n2", "n2"],
    ]);
    expect(leaves).toEqual(["n1", "1", null, "1", "n2", "n3"]);
  });

  it("getEntriesAppendedSince returns the entries after a count", () => {
    const tree = buildTree([userEntry("1", null, "q")], { newId: sequentialIds() });
    const count = tree.getEntryCount();
    tree.appendMessage(assistantMsg("a"));
    tree.appendThinkingLevelChange("low");
    expect(ids(tree.getEntriesAppendedSince(count))).toEqual(["n1", "n2"]);
    expect(tree.getEntriesAppendedSince(tree.getEntryCount())).toEqual([]);
  });
});
