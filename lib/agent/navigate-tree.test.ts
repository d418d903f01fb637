import { describe, expect, it } from "vitest";
import { type NavigateModel, navigateTree } from "@/lib/agent/navigate-tree";
import type { SummarizeRequest, SummarizeResponse } from "@/lib/compaction/summarize-types";
import { TEST_PROMPTS, words } from "@/test/compaction-helpers";
import { HookRegistry } from "@/lib/hooks/registry";
import type { HookError, HookEvent } from "@/lib/hooks/types";
import {
  assistantEntry,
  buildTree,
  customMessageEntry,
  sequentialIds,
  text,
  toolCall,
  userEntry,
} from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";

const MODEL: NavigateModel = { provider: "anthropic", id: "claude-sonnet-4-5", contextWindow: 200_000, hasApiKey: true };

/** u1 "First message" → a1 → u2 → a2 (leaf). */
function session() {
  const tree = buildTree(
    [
      userEntry("u1", null, "First message"),
      assistantEntry("a1", "u1", "First reply"),
      userEntry("u2", "a1", "Second message"),
      assistantEntry("a2", "u2", "Second reply", { toolCalls: [toolCall("c1", "edit", { path: "src/a.ts" })] }),
    ],
    { newId: sequentialIds("n") },
  );
  return tree;
}

function fakeSummarize(response: SummarizeResponse = { stopReason: "stop", text: "What happened" }) {
  const calls: SummarizeRequest[] = [];
  const summarize = async (req: SummarizeRequest) => {
    calls.push(req);
    return response;
  };
  return { summarize, calls };
}

const base = { prompts: TEST_PROMPTS };
const snapshot = (tree: ReturnType<typeof session>) => ({ count: tree.getEntryCount(), leaf: tree.getLeafId() });

describe("navigateTree without a summary (session-engine.md §11.4)", () => {
  it("to the root user message: editor text is its content and the leaf is null", async () => {
    const tree = session();
    const r = await navigateTree(tree, "u1", base);
    expect(r).toMatchObject({ cancelled: false, editorText: "First message", newLeafId: null, appended: [] });
    expect(tree.getLeafId()).toBeNull();
    expect(r.context?.messages).toEqual([]);
  });

  it("to an assistant: no editor text and the leaf is that assistant", async () => {
    const tree = session();
    const r = await navigateTree(tree, "a1", base);
    expect(r.editorText).toBeUndefined();
    expect(tree.getLeafId()).toBe("a1");
    expect(r.newLeafId).toBe("a1");
    expect(r.context?.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("to a nested user message: the leaf is its parent", async () => {
    const tree = session();
    const r = await navigateTree(tree, "u2", base);
    expect(r.editorText).toBe("Second message");
    expect(tree.getLeafId()).toBe("a1");
  });

  it("to a custom_message: its text blocks joined, leaf = its parent", async () => {
    const tree = buildTree([
      userEntry("u1", null, "hi"),
      customMessageEntry("cm", "u1", "note", [text("part one, "), text("part two")]),
      assistantEntry("a", "cm", "ok"),
    ]);
    const r = await navigateTree(tree, "cm", base);
    expect(r.editorText).toBe("part one, part two");
    expect(tree.getLeafId()).toBe("u1");
  });

  it("without summarize no entries are added", async () => {
    const tree = session();
    const r = await navigateTree(tree, "u1", base);
    expect(tree.getEntryCount()).toBe(4);
    expect(r.summaryEntry).toBeUndefined();
  });

  it("navigating to the current position is a no-op", async () => {
    const tree = session();
    const hooks = new HookRegistry();
    let fired = 0;
    hooks.on("session_before_tree", () => void fired++);
    const { summarize, calls } = fakeSummarize();
    const r = await navigateTree(tree, "a2", { ...base, summarize, model: MODEL, hooks });
    expect(r).toEqual({ cancelled: false, newLeafId: "a2", appended: [] });
    expect(snapshot(tree)).toEqual({ count: 4, leaf: "a2" });
    expect(calls).toHaveLength(0);
    expect(fired).toBe(0);
  });

  it("throws for an unknown target, and for summarize without a model", async () => {
    const tree = session();
    await expect(navigateTree(tree, "nope", base)).rejects.toThrow("Entry nope not found");
    const { summarize } = fakeSummarize();
    await expect(navigateTree(tree, "u1", { ...base, summarize })).rejects.toThrow("No model available for summarization");
  });
});

describe("navigateTree with a summary (session-engine.md §11.4)", () => {
  it("to the root user message: the summary is a new root and the leaf", async () => {
    const tree = session();
    const { summarize, calls } = fakeSummarize();
    const r = await navigateTree(tree, "u1", { ...base, summarize, model: MODEL });
    expect(r.summaryEntry).toMatchObject({ type: "branch_summary", parentId: null, fromId: "root", fromExtension: false });
    expect(r.summaryEntry?.summary).toBe("PREAMBLE:\n\nWhat happened\n\n<modified-files>\nsrc/a.ts\n</modified-files>");
    expect(r.summaryEntry?.details).toEqual({ readFiles: [], modifiedFiles: ["src/a.ts"] });
    expect(tree.getLeafId()).toBe(r.summaryEntry?.id);
    expect(r.newLeafId).toBe(r.summaryEntry?.id);
    expect(r.appended).toEqual([r.summaryEntry]);
    expect(r.editorText).toBe("First message");
    // The target is an ancestor of the old leaf, so only the entries after it are summarized.
    expect(calls[0]?.prompt).not.toContain("[User]: First message");
    expect(calls[0]?.prompt).toContain("[Assistant]: First reply");
    expect(calls[0]?.prompt).toContain("[Assistant]: Second reply");
    expect(r.context?.messages.map((m) => m.role)).toEqual(["branchSummary"]);
  });

  it("to a nested user u2: the summary hangs under a1, which then has 2 children", async () => {
    const tree = session();
    const { summarize } = fakeSummarize();
    const r = await navigateTree(tree, "u2", { ...base, summarize, model: MODEL });
    expect(r.summaryEntry?.parentId).toBe("a1");
    expect(r.summaryEntry?.fromId).toBe("a1");
    expect(tree.getChildren("a1").map((e) => e.type)).toEqual(["message", "branch_summary"]);
  });

  it("to assistant a1: the summary's parent is a1", async () => {
    const tree = session();
    const { summarize, calls } = fakeSummarize();
    const r = await navigateTree(tree, "a1", { ...base, summarize, model: MODEL });
    expect(r.summaryEntry?.parentId).toBe("a1");
    expect(calls[0]?.prompt).not.toContain("First message"); // only the entries after a1
  });

  it("passes custom instructions, the reserve and the model's window to the summary", async () => {
    const tree = buildTree([userEntry("u1", null, "start"), userEntry("old", "u1", words(5000)), userEntry("new", "old", words(3000))]);
    const { summarize, calls } = fakeSummarize();
    await navigateTree(tree, "u1", {
      ...base,
      summarize,
      model: { ...MODEL, contextWindow: 20_000 },
      branchSummaryReserveTokens: 16_384,
      customInstructions: "Just the files",
    });
    expect(calls[0]?.prompt.endsWith("\n\nJust the files")).toBe(true);
    expect(calls[0]?.prompt).not.toContain(words(5000));
    expect(calls[0]).toMatchObject({ kind: "branch", maxTokens: 2048 });
  });

  it("with nothing to summarize (target is the old leaf's ancestor with no entries between) writes no summary", async () => {
    const tree = buildTree([userEntry("u1", null, "x"), assistantEntry("a1", "u1", "y")]);
    tree.branch("u1");
    const { summarize, calls } = fakeSummarize();
    // Old leaf u1 is an ancestor of a1: nothing was left behind.
    const r = await navigateTree(tree, "a1", { ...base, summarize, model: MODEL });
    expect(calls).toHaveLength(0);
    expect(r.summaryEntry).toBeUndefined();
    expect(tree.getLeafId()).toBe("a1");
  });

  it("throws without an API key, and on an error response, leaving the tree unchanged", async () => {
    const tree = session();
    const { summarize } = fakeSummarize();
    await expect(navigateTree(tree, "u1", { ...base, summarize, model: { ...MODEL, hasApiKey: false } })).rejects.toThrow(
      "No API key for anthropic",
    );
    const failing = fakeSummarize({ stopReason: "error", errorMessage: "model exploded" });
    await expect(navigateTree(tree, "u1", { ...base, summarize: failing.summarize, model: MODEL })).rejects.toThrow(
      "model exploded",
    );
    expect(snapshot(tree)).toEqual({ count: 4, leaf: "a2" });
  });
});

describe("navigateTree abort (session-engine.md §11.4 step 6)", () => {
  it("an aborted summary gives cancelled + aborted with entries and leaf unchanged", async () => {
    const tree = session();
    const { summarize } = fakeSummarize({ stopReason: "aborted" });
    const r = await navigateTree(tree, "u1", { ...base, summarize, model: MODEL });
    expect(r).toEqual({ cancelled: true, aborted: true, appended: [] });
    expect(snapshot(tree)).toEqual({ count: 4, leaf: "a2" });
  });

  it("the caller's signal reaches the summarizer and aborting it writes nothing", async () => {
    const tree = session();
    const outer = new AbortController();
    let seen: AbortSignal | undefined;
    const summarize = async (req: SummarizeRequest): Promise<SummarizeResponse> => {
      seen = req.signal;
      outer.abort(); // the user presses Cancel while the model is answering
      return { stopReason: "stop", text: "too late" };
    };
    const r = await navigateTree(tree, "u1", { ...base, summarize, model: MODEL, signal: outer.signal });
    expect(seen?.aborted).toBe(true);
    expect(r).toEqual({ cancelled: true, aborted: true, appended: [] });
    expect(snapshot(tree)).toEqual({ count: 4, leaf: "a2" });
  });

  it("a summarizer that throws after an abort is reported as aborted, not as an error", async () => {
    const tree = session();
    const outer = new AbortController();
    const summarize = async (): Promise<SummarizeResponse> => {
      outer.abort();
      throw new Error("The operation was aborted");
    };
    const r = await navigateTree(tree, "u1", { ...base, summarize, model: MODEL, signal: outer.signal });
    expect(r).toMatchObject({ cancelled: true, aborted: true });
  });
});

describe("navigateTree hooks (session-engine.md §11.4 steps 5 and 10, §12)", () => {
  it("session_before_tree fires even without summarize, with the preparation", async () => {
    const tree = session();
    const hooks = new HookRegistry();
    const events: HookEvent<"session_before_tree">[] = [];
    hooks.on("session_before_tree", (e) => void events.push(e));
    await navigateTree(tree, "u2", { ...base, hooks });
    expect(events).toHaveLength(1);
    expect(events[0]?.preparation).toMatchObject({
      targetId: "u2",
      oldLeafId: "a2",
      commonAncestorId: "u2",
      userWantsSummary: false,
    });
    expect(events[0]?.preparation.entriesToSummarize.map((e: SessionEntry) => e.id)).toEqual(["a2"]);
    expect(events[0]?.signal.aborted).toBe(false);
  });

  it("cancel returns { cancelled: true } without summarizing or moving", async () => {
    const tree = session();
    const hooks = new HookRegistry();
    hooks.on("session_before_tree", () => ({ cancel: true }));
    const { summarize, calls } = fakeSummarize();
    const r = await navigateTree(tree, "u1", { ...base, summarize, model: MODEL, hooks });
    expect(r).toEqual({ cancelled: true, appended: [] });
    expect(calls).toHaveLength(0);
    expect(snapshot(tree)).toEqual({ count: 4, leaf: "a2" });
  });

  it("a hook summary is used with fromExtension and the hook's details; the model is not called", async () => {
    const tree = session();
    const hooks = new HookRegistry();
    hooks.on("session_before_tree", () => ({ summary: { summary: "Hook recap", details: { custom: 1 } } }));
    const after: HookEvent<"session_tree">[] = [];
    hooks.on("session_tree", (e) => void after.push(e));
    const { summarize, calls } = fakeSummarize();
    const r = await navigateTree(tree, "a1", { ...base, summarize, model: { ...MODEL, hasApiKey: false }, hooks });
    expect(calls).toHaveLength(0);
    expect(r.summaryEntry).toMatchObject({ summary: "Hook recap", details: { custom: 1 }, fromExtension: true, parentId: "a1" });
    expect(after[0]).toMatchObject({ newLeafId: r.summaryEntry?.id, oldLeafId: "a2", fromExtension: true });
    expect(after[0]?.summaryEntry).toBe(r.summaryEntry);
  });

  it("a hook summary is ignored when the user did not ask for one", async () => {
    const tree = session();
    const hooks = new HookRegistry();
    hooks.on("session_before_tree", () => ({ summary: { summary: "Hook recap" } }));
    const r = await navigateTree(tree, "a1", { ...base, hooks });
    expect(r.summaryEntry).toBeUndefined();
    expect(tree.getEntryCount()).toBe(4);
  });

  it("a throwing hook is reported and the default summary path continues", async () => {
    const tree = session();
    const hooks = new HookRegistry();
    const errors: HookError[] = [];
    hooks.onError((e) => errors.push(e));
    hooks.registerSource("arbor.hooks.ts", (api) =>
      api.on("session_before_tree", () => {
        throw new Error("hook failed");
      }),
    );
    const { summarize, calls } = fakeSummarize();
    const r = await navigateTree(tree, "u1", { ...base, summarize, model: MODEL, hooks });
    expect(errors).toMatchObject([{ source: "arbor.hooks.ts", event: "session_before_tree", error: "hook failed" }]);
    expect(calls).toHaveLength(1);
    expect(r.summaryEntry?.fromExtension).toBe(false);
  });

  it("session_tree reports the new and old leaf; fromExtension is absent without a summary", async () => {
    const tree = session();
    const hooks = new HookRegistry();
    const after: HookEvent<"session_tree">[] = [];
    hooks.on("session_tree", (e, ctx) => {
      after.push(e);
      expect(ctx.getLeafId()).toBe("a1"); // handlers see the finished move
    });
    await navigateTree(tree, "a1", { ...base, hooks });
    expect(after).toEqual([{ type: "session_tree", newLeafId: "a1", oldLeafId: "a2" }]);
  });
});
