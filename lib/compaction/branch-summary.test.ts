import { describe, expect, it } from "vitest";
import {
  collectEntriesForBranchSummary,
  generateBranchSummary,
  prepareBranchEntries,
} from "@/lib/compaction/branch-summary";
import type { SummarizeRequest, SummarizeResponse } from "@/lib/compaction/summarize-types";
import { TEST_PROMPTS, words } from "@/test/compaction-helpers";
import {
  assistantEntry,
  assistantMsg,
  branchSummaryEntry,
  buildTree,
  compactionEntry,
  customMessageEntry,
  labelEntry,
  messageEntry,
  toolCall,
  toolResultMsg,
  userEntry,
} from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";

const ids = (entries: readonly SessionEntry[]) => entries.map((e) => e.id);

function fakeSummarize(response: SummarizeResponse = { stopReason: "stop", text: "BRANCH TEXT" }) {
  const calls: SummarizeRequest[] = [];
  const summarize = async (req: SummarizeRequest) => {
    calls.push(req);
    return response;
  };
  return { summarize, calls };
}

describe("collectEntriesForBranchSummary (session-engine.md §11.1)", () => {
  // u1 → a1 → u2 → a2 (old leaf), and a1 → u3 (target branch)
  const entries: SessionEntry[] = [
    userEntry("u1", null, "one"),
    assistantEntry("a1", "u1", "r1"),
    userEntry("u2", "a1", "two"),
    assistantEntry("a2", "u2", "r2"),
    userEntry("u3", "a1", "three"),
  ];
  const tree = buildTree(entries);

  it("returns nothing for a null old leaf", () => {
    expect(collectEntriesForBranchSummary(tree, null, "u3")).toEqual({ entries: [], commonAncestorId: null });
  });

  it("collects from the old leaf back to the common ancestor, oldest first", () => {
    const r = collectEntriesForBranchSummary(tree, "a2", "u3");
    expect(r.commonAncestorId).toBe("a1");
    expect(ids(r.entries)).toEqual(["u2", "a2"]);
  });

  it("target an ancestor of the old leaf: the entries strictly after it", () => {
    const r = collectEntriesForBranchSummary(tree, "a2", "a1");
    expect(r.commonAncestorId).toBe("a1");
    expect(ids(r.entries)).toEqual(["u2", "a2"]);
    expect(ids(collectEntriesForBranchSummary(tree, "a2", "u1").entries)).toEqual(["a1", "u2", "a2"]);
  });

  it("with no common ancestor (separate roots) collects the whole old path", () => {
    const t = buildTree([userEntry("r1", null, "x"), assistantEntry("x1", "r1", "y"), userEntry("r2", null, "z")]);
    const r = collectEntriesForBranchSummary(t, "x1", "r2");
    expect(r).toMatchObject({ commonAncestorId: null });
    expect(ids(r.entries)).toEqual(["r1", "x1"]);
  });

  it("does not stop at compactions or earlier branch summaries", () => {
    const t = buildTree([
      userEntry("u1", null, "one"),
      assistantEntry("a1", "u1", "r1"),
      compactionEntry("c1", "a1", "S", "a1"),
      branchSummaryEntry("b1", "c1", "c1", "old branch"),
      userEntry("u2", "b1", "two"),
      userEntry("t", "u1", "target"),
    ]);
    expect(ids(collectEntriesForBranchSummary(t, "u2", "t").entries)).toEqual(["a1", "c1", "b1", "u2"]);
  });

  it("an unknown old leaf yields no entries", () => {
    expect(collectEntriesForBranchSummary(tree, "missing", "u3").entries).toEqual([]);
  });
});

describe("prepareBranchEntries (session-engine.md §11.2)", () => {
  it("maps entries: tool results skipped, custom_message → custom, compaction → compactionSummary", () => {
    const entries: SessionEntry[] = [
      compactionEntry("c", null, "compacted", "x", 5000, { extra: { shortSummary: "short" } }),
      userEntry("u", "c", "hi"),
      assistantEntry("a", "u", "", { toolCalls: [toolCall("t1", "bash", { command: "ls" })] }),
      messageEntry("tr", "a", toolResultMsg("t1", "file.txt")),
      customMessageEntry("cm", "tr", "note", "custom text"),
      branchSummaryEntry("b", "cm", "cm", "prior branch"),
      labelEntry("l", "b", "u", "mark"),
    ];
    const { messages } = prepareBranchEntries(entries);
    expect(messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "custom", "branchSummary"]);
    expect(messages[0]).toMatchObject({ summary: "compacted", shortSummary: "short", tokensBefore: 5000 });
    expect(messages[3]).toMatchObject({ customType: "note", content: "custom text", display: true });
    expect(messages[0]?.timestamp).toBe(Date.parse(entries[0]!.timestamp));
  });

  it("pass 1 takes file lists from every non-extension branch summary, even beyond the budget", () => {
    const details = (r: string, m: string) => ({ details: { readFiles: [r], modifiedFiles: [m] } });
    const entries: SessionEntry[] = [
      branchSummaryEntry("b1", null, "root", words(500), { extra: details("old-read.ts", "old-mod.ts") }),
      branchSummaryEntry("b2", "b1", "b1", "x", { extra: { ...details("ext.ts", "ext2.ts"), fromExtension: true } }),
      branchSummaryEntry("b3", "b2", "b2", "y", { extra: { ...details("hook.ts", "hook2.ts"), fromHook: true } }),
      userEntry("u", "b3", words(90)),
    ];
    const { messages, fileOps } = prepareBranchEntries(entries, 100);
    // b1 (500 tokens) does not fit and the budget is already over 90% used, so it is left out.
    expect(messages.map((m) => m.role)).toEqual(["branchSummary", "branchSummary", "user"]);
    expect([...fileOps.read]).toEqual(["old-read.ts"]);
    expect([...fileOps.edited]).toEqual(["old-mod.ts"]);
  });

  it("keeps the newest messages that fit the budget and stops at the first that does not", () => {
    const entries: SessionEntry[] = [
      userEntry("u1", null, words(10)),
      userEntry("u2", "u1", words(60)),
      userEntry("u3", "u2", words(30)),
      userEntry("u4", "u3", words(40)),
    ];
    const r = prepareBranchEntries(entries, 100);
    expect(r.messages.map((m) => (m.role === "user" ? m.content : m.role))).toEqual([words(30), words(40)]);
    expect(r.totalTokens).toBe(70);
    // u1 (10 tokens) would fit, but the walk has stopped.
    expect(prepareBranchEntries(entries, 0).totalTokens).toBe(140);
  });

  it("squeezes in a compaction or branch summary while under 90% of the budget, then stops", () => {
    const entries: SessionEntry[] = [
      userEntry("u0", null, words(1)),
      compactionEntry("c", "u0", words(50), "u0"),
      userEntry("u1", "c", words(80)),
    ];
    const under = prepareBranchEntries(entries, 100);
    expect(under.messages.map((m) => m.role)).toEqual(["compactionSummary", "user"]);
    expect(under.totalTokens).toBe(130);

    const full = [entries[0]!, branchSummaryEntry("b", "u0", "u0", words(50)), userEntry("u1", "b", words(90))];
    expect(prepareBranchEntries(full, 100).messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("extracts file ops from the entry that overflows (before the check) but not from older ones", () => {
    const read = (id: string, parent: string | null, path: string, size: number) =>
      assistantEntry(id, parent, words(size), { toolCalls: [toolCall(`c-${id}`, "read", { path })] });
    const entries: SessionEntry[] = [
      read("a1", null, "older.ts", 1),
      read("a2", "a1", "overflowing.ts", 200),
      assistantEntry("a3", "a2", words(10), { toolCalls: [toolCall("c3", "edit", { path: "kept.ts" })] }),
    ];
    const r = prepareBranchEntries(entries, 100);
    expect(r.messages).toHaveLength(1);
    expect([...r.fileOps.read]).toEqual(["overflowing.ts"]);
    expect([...r.fileOps.edited]).toEqual(["kept.ts"]);
  });
});

describe("generateBranchSummary (session-engine.md §11.3)", () => {
  const entries: SessionEntry[] = [
    userEntry("u1", null, "Try approach B"),
    assistantEntry("a1", "u1", "Trying B", {
      toolCalls: [toolCall("c1", "read", { path: "src/b.ts" }), toolCall("c2", "write", { path: "src/new.ts" })],
    }),
    messageEntry("t1", "a1", toolResultMsg("c1", "contents")),
  ];

  it("sends one branch request: system prompt, conversation, default prompt, 2048 tokens, no reasoning", async () => {
    const { summarize, calls } = fakeSummarize();
    const signal = new AbortController().signal;
    await generateBranchSummary(entries, { summarize, prompts: TEST_PROMPTS, contextWindow: 200_000, signal });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual({
      kind: "branch",
      systemPrompt: "SYSTEM-PROMPT",
      prompt:
        "<conversation>\n[User]: Try approach B\n\n[Assistant]: Trying B\n\n" +
        '[Assistant tool calls]: read(path="src/b.ts"); write(path="src/new.ts")\n</conversation>\n\nBRANCH-PROMPT',
      maxTokens: 2048,
      signal,
    });
    expect("reasoning" in calls[0]!).toBe(false);
  });

  it("custom instructions replace the default prompt", async () => {
    const { summarize, calls } = fakeSummarize();
    await generateBranchSummary(entries, { summarize, prompts: TEST_PROMPTS, customInstructions: "Only list files" });
    expect(calls[0]?.prompt.endsWith("</conversation>\n\nOnly list files")).toBe(true);
    expect(calls[0]?.prompt).not.toContain("BRANCH-PROMPT");
  });

  it("summary = preamble, a blank line, the text, then the file lists (session-engine.md §18.2)", async () => {
    const { summarize } = fakeSummarize({ stopReason: "stop", text: "## Goal\nB" });
    const r = await generateBranchSummary(entries, { summarize, prompts: TEST_PROMPTS });
    expect(r).toEqual({
      summary: "PREAMBLE:\n\n## Goal\nB\n\n<read-files>\nsrc/b.ts\n</read-files>\n\n<modified-files>\nsrc/new.ts\n</modified-files>",
      readFiles: ["src/b.ts"],
      modifiedFiles: ["src/new.ts"],
    });
  });

  it("returns No content to summarize without calling the model", async () => {
    const { summarize, calls } = fakeSummarize();
    const onlyTools = [messageEntry("t", null, toolResultMsg("c", "x")), labelEntry("l", "t", "t", "L")];
    expect(await generateBranchSummary(onlyTools, { summarize, prompts: TEST_PROMPTS })).toEqual({
      summary: "No content to summarize",
    });
    expect(calls).toHaveLength(0);
  });

  it("maps aborted and error responses", async () => {
    const aborted = fakeSummarize({ stopReason: "aborted" });
    expect(await generateBranchSummary(entries, { summarize: aborted.summarize, prompts: TEST_PROMPTS })).toEqual({
      aborted: true,
    });
    const failed = fakeSummarize({ stopReason: "error", errorMessage: "503 overloaded" });
    expect(await generateBranchSummary(entries, { summarize: failed.summarize, prompts: TEST_PROMPTS })).toEqual({
      error: "503 overloaded",
    });
    const silent = fakeSummarize({ stopReason: "error" });
    expect(await generateBranchSummary(entries, { summarize: silent.summarize, prompts: TEST_PROMPTS })).toEqual({
      error: "Summarization failed",
    });
  });

  it("budget = (contextWindow || 128000) - reserveTokens", async () => {
    const big: SessionEntry[] = [userEntry("old", null, words(5000)), userEntry("new", "old", words(3000))];
    const small = fakeSummarize();
    // 20000 - 16384 = 3616: only the newest message fits.
    await generateBranchSummary(big, { summarize: small.summarize, prompts: TEST_PROMPTS, contextWindow: 20_000 });
    expect(small.calls[0]?.prompt).not.toContain(words(5000));
    expect(small.calls[0]?.prompt).toContain(words(3000));

    const fallback = fakeSummarize();
    await generateBranchSummary(big, { summarize: fallback.summarize, prompts: TEST_PROMPTS, contextWindow: 0 });
    expect(fallback.calls[0]?.prompt).toContain(words(5000));

    const reserved = fakeSummarize();
    await generateBranchSummary(big, {
      summarize: reserved.summarize,
      prompts: TEST_PROMPTS,
      contextWindow: 0,
      reserveTokens: 125_000,
    });
    expect(reserved.calls[0]?.prompt).not.toContain(words(5000));
  });

  it("passes assistant messages through convertToLlm and serialization", async () => {
    const { summarize, calls } = fakeSummarize();
    await generateBranchSummary([messageEntry("a", null, assistantMsg("", { thinking: "hmm" }))], {
      summarize,
      prompts: TEST_PROMPTS,
    });
    expect(calls[0]?.prompt).toContain("[Assistant thinking]: hmm");
  });
});

describe("branch summary scale (linear time)", () => {
  it("collects and prepares a 100,000-entry branch quickly", () => {
    const entries: SessionEntry[] = [];
    for (let i = 0; i < 100_000; i++) {
      entries.push(i % 2 === 0 ? userEntry(`e${i}`, i === 0 ? null : `e${i - 1}`, "q") : assistantEntry(`e${i}`, `e${i - 1}`, "a"));
    }
    entries.push(userEntry("side", "e0", "other way"));
    const tree = buildTree(entries);
    const started = performance.now();
    const { entries: collected, commonAncestorId } = collectEntriesForBranchSummary(tree, "e99999", "side");
    const prepared = prepareBranchEntries(collected, 0);
    expect(commonAncestorId).toBe("e0");
    expect(collected).toHaveLength(99_999);
    expect(prepared.messages).toHaveLength(99_999);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
