import { describe, expect, it } from "vitest";
import { compact, compactionBudgets } from "@/lib/compaction/compact";
import { createFileOps } from "@/lib/compaction/file-ops";
import type { CompactionPreparation } from "@/lib/compaction/prepare";
import type { SummarizeRequest, SummarizeResponse } from "@/lib/compaction/summarize-types";
import { TEST_PROMPTS, assistant, settings, user } from "@/test/compaction-helpers";

const SEP = "\n\n---\n\n**Turn Context (split turn):**\n\n";

function preparation(partial: Partial<CompactionPreparation> = {}): CompactionPreparation {
  return {
    firstKeptEntryId: "keep-1",
    messagesToSummarize: [user("old question"), assistant("old answer")],
    turnPrefixMessages: [],
    recentMessages: [user("new question")],
    isSplitTurn: false,
    tokensBefore: 1234,
    fileOps: createFileOps(),
    settings: settings(),
    keepRecentTokens: 20_000,
    firstKeptEntryIndex: 2,
    turnStartIndex: -1,
    ...partial,
  };
}

/** A fake summarizer that records requests and answers by kind. */
function fake(answers: Partial<Record<SummarizeRequest["kind"], SummarizeResponse>> = {}) {
  const requests: SummarizeRequest[] = [];
  const summarize = async (req: SummarizeRequest): Promise<SummarizeResponse> => {
    requests.push(req);
    return answers[req.kind] ?? { stopReason: "stop", text: `${req.kind.toUpperCase()}-TEXT` };
  };
  const of = (kind: SummarizeRequest["kind"]) => requests.filter((r) => r.kind === kind);
  return { summarize, requests, of };
}

const deps = (summarize: (r: SummarizeRequest) => Promise<SummarizeResponse>) => ({ summarize, prompts: TEST_PROMPTS });

describe("compact: steps (session-engine.md §6.1)", () => {
  it("summarizes history, then the short summary, and returns the result", async () => {
    const f = fake();
    const prep = preparation();
    prep.fileOps.read.add("b.ts");
    prep.fileOps.edited.add("a.ts");
    const result = await compact(prep, deps(f.summarize));
    expect(f.requests.map((r) => r.kind)).toEqual(["history", "short"]);
    expect(result).toEqual({
      summary: "HISTORY-TEXT\n\n<read-files>\nb.ts\n</read-files>\n\n<modified-files>\na.ts\n</modified-files>",
      shortSummary: "SHORT-TEXT",
      firstKeptEntryId: "keep-1",
      tokensBefore: 1234,
      details: { readFiles: ["b.ts"], modifiedFiles: ["a.ts"] },
    });
  });

  it("runs history and turn prefix in parallel for a split turn and merges them", async () => {
    const started: string[] = [];
    const resolvers: Array<() => void> = [];
    const requests: SummarizeRequest[] = [];
    const summarize = (req: SummarizeRequest) => {
      requests.push(req);
      started.push(req.kind);
      if (req.kind === "short") return Promise.resolve<SummarizeResponse>({ stopReason: "stop", text: "S" });
      return new Promise<SummarizeResponse>((resolve) => {
        resolvers.push(() => resolve({ stopReason: "stop", text: req.kind === "history" ? "H" : "P" }));
      });
    };
    const pending = compact(
      preparation({ isSplitTurn: true, turnPrefixMessages: [user("turn start"), assistant("working")] }),
      deps(summarize),
    );
    await new Promise((r) => setTimeout(r, 0));
    // Both calls are in flight before either has resolved.
    expect(started.sort()).toEqual(["history", "turnPrefix"]);
    for (const resolve of resolvers) resolve();
    const result = await pending;
    expect(result.summary).toBe(`H${SEP}P`);
    const prefix = requests.find((r) => r.kind === "turnPrefix");
    expect(prefix?.prompt).toBe(
      "<conversation>\n[User]: turn start\n\n[Assistant]: working\n</conversation>\n\nTURN-PREFIX-PROMPT",
    );
    // The short summary sees the merged summary.
    expect(requests.find((r) => r.kind === "short")?.prompt).toContain(`<previous-summary>\nH${SEP}P\n</previous-summary>`);
  });

  it("split turn with no history uses 'No prior history.' and makes no history call", async () => {
    const f = fake();
    const result = await compact(
      preparation({ isSplitTurn: true, messagesToSummarize: [], turnPrefixMessages: [user("t")], previousSummary: "PREV" }),
      deps(f.summarize),
    );
    expect(f.requests.map((r) => r.kind).sort()).toEqual(["short", "turnPrefix"]);
    expect(result.summary).toBe(`No prior history.${SEP}TURNPREFIX-TEXT`);
  });

  it("a split turn with an empty prefix takes the non-split path (session-engine.md §5.3)", async () => {
    const f = fake();
    const result = await compact(preparation({ isSplitTurn: true, turnPrefixMessages: [] }), deps(f.summarize));
    expect(f.requests.map((r) => r.kind)).toEqual(["history", "short"]);
    expect(result.summary).toBe("HISTORY-TEXT");
  });

  it("reuses the previous summary with no model call, still appending file lists", async () => {
    const f = fake();
    const prep = preparation({ messagesToSummarize: [], previousSummary: "PREVIOUS" });
    prep.fileOps.written.add("w.ts");
    const result = await compact(prep, deps(f.summarize));
    expect(f.of("history")).toHaveLength(0);
    expect(result.summary).toBe("PREVIOUS\n\n<modified-files>\nw.ts\n</modified-files>");
    expect(f.of("short")[0]?.prompt).toContain("<previous-summary>\nPREVIOUS\n</previous-summary>");
  });

  it("with nothing at all, the summary is 'No prior history.' and the short summary still runs", async () => {
    const f = fake();
    const result = await compact(preparation({ messagesToSummarize: [], recentMessages: [] }), deps(f.summarize));
    expect(result.summary).toBe("No prior history.");
    expect(f.requests).toHaveLength(1);
    expect(f.requests[0]?.prompt).toBe(
      "<conversation>\n\n</conversation>\n\n<previous-summary>\nNo prior history.\n</previous-summary>\n\nSHORT-PROMPT",
    );
  });

  it("the short summary sees the summary before the file lists are appended", async () => {
    const f = fake();
    const prep = preparation();
    prep.fileOps.read.add("r.ts");
    const result = await compact(prep, deps(f.summarize));
    expect(f.of("short")[0]?.prompt).not.toContain("read-files");
    expect(result.summary).toContain("<read-files>\nr.ts\n</read-files>");
  });

  it("uses a remote shortSummary from the history response and skips the short call (§18.5)", async () => {
    const f = fake({ history: { stopReason: "stop", text: "REMOTE", shortSummary: "remote short" } });
    const result = await compact(preparation(), deps(f.summarize));
    expect(f.requests.map((r) => r.kind)).toEqual(["history"]);
    expect(result.shortSummary).toBe("remote short");
  });

  it("an empty remote shortSummary still triggers the short call", async () => {
    const f = fake({ history: { stopReason: "stop", text: "REMOTE", shortSummary: "" } });
    const result = await compact(preparation(), deps(f.summarize));
    expect(f.requests.map((r) => r.kind)).toEqual(["history", "short"]);
    expect(result.shortSummary).toBe("SHORT-TEXT");
  });

  it("throws when the first kept entry has no id", async () => {
    const f = fake();
    await expect(compact(preparation({ firstKeptEntryId: "" }), deps(f.summarize))).rejects.toThrow(
      "First kept entry has no ID - session may need migration",
    );
  });
});

describe("compact: prompt assembly (session-engine.md §6.2)", () => {
  it("builds the first history prompt and sends the rendered system prompt", async () => {
    const f = fake();
    const prompts = { ...TEST_PROMPTS, summarizationSystem: "  SYSTEM  \r\n", compactionSummary: "Summarize.\n\n\n\n" };
    await compact(preparation(), { summarize: f.summarize, prompts });
    const history = f.of("history")[0];
    expect(history?.systemPrompt).toBe("SYSTEM");
    expect(history?.prompt).toBe(
      "<conversation>\n[User]: old question\n\n[Assistant]: old answer\n</conversation>\n\nSummarize.",
    );
    expect(f.of("short")[0]?.systemPrompt).toBe("SYSTEM");
  });

  it("uses the update prompt and the previous-summary block when a previous summary exists", async () => {
    const f = fake();
    await compact(preparation({ previousSummary: "PREV" }), deps(f.summarize));
    expect(f.of("history")[0]?.prompt).toBe(
      "<conversation>\n[User]: old question\n\n[Assistant]: old answer\n</conversation>\n\n<previous-summary>\nPREV\n</previous-summary>\n\nUPDATE-PROMPT",
    );
  });

  it("adds additional context as '- ' bullets to history and short prompts only", async () => {
    const f = fake();
    await compact(preparation({ isSplitTurn: true, turnPrefixMessages: [user("t")] }), deps(f.summarize), {
      extraContext: ["one", "two"],
    });
    const block = "<additional-context>\n- one\n- two\n</additional-context>\n\n";
    expect(f.of("history")[0]?.prompt).toContain(`${block}SUMMARY-PROMPT`);
    expect(f.of("short")[0]?.prompt).toBe(
      `<conversation>\n[User]: new question\n</conversation>\n\n<previous-summary>\nHISTORY-TEXT${SEP}TURNPREFIX-TEXT\n</previous-summary>\n\n${block}SHORT-PROMPT`,
    );
    expect(f.of("turnPrefix")[0]?.prompt).not.toContain("additional-context");
  });

  it("appends custom instructions as 'Additional focus', also to an override, never to other calls", async () => {
    const f = fake();
    await compact(preparation({ previousSummary: "P" }), deps(f.summarize), { customInstructions: "the API" });
    expect(f.of("history")[0]?.prompt.endsWith("UPDATE-PROMPT\n\nAdditional focus: the API")).toBe(true);

    const g = fake();
    await compact(preparation({ isSplitTurn: true, turnPrefixMessages: [user("t")] }), deps(g.summarize), {
      customInstructions: "the API",
      promptOverride: "HOOK PROMPT",
    });
    expect(g.of("history")[0]?.prompt.endsWith("</conversation>\n\nHOOK PROMPT\n\nAdditional focus: the API")).toBe(true);
    expect(g.of("turnPrefix")[0]?.prompt).not.toMatch(/Additional focus|HOOK PROMPT/);
    expect(g.of("short")[0]?.prompt).not.toMatch(/Additional focus|HOOK PROMPT/);
  });

  it("an empty override falls back to the template", async () => {
    const f = fake();
    await compact(preparation(), deps(f.summarize), { promptOverride: "" });
    expect(f.of("history")[0]?.prompt.endsWith("SUMMARY-PROMPT")).toBe(true);
  });
});

describe("compact: budgets, reasoning and signal (session-engine.md §6.3)", () => {
  it("derives budgets from reserveTokens (defaults 13107 / 8192 / 512)", () => {
    expect(compactionBudgets(16384)).toEqual({ history: 13107, turnPrefix: 8192, short: 512 });
    expect(compactionBudgets(1000)).toEqual({ history: 800, turnPrefix: 500, short: 200 });
    expect(compactionBudgets(1001)).toEqual({ history: 800, turnPrefix: 500, short: 200 });
  });

  it("sends the budgets, reasoning 'high' and the caller's signal on all three calls", async () => {
    const f = fake();
    const signal = new AbortController().signal;
    await compact(
      preparation({ isSplitTurn: true, turnPrefixMessages: [user("t")], settings: settings({ reserveTokens: 5000 }) }),
      deps(f.summarize),
      { signal },
    );
    const byKind = Object.fromEntries(f.requests.map((r) => [r.kind, r]));
    expect(byKind.history).toMatchObject({ maxTokens: 4000, reasoning: "high", signal });
    expect(byKind.turnPrefix).toMatchObject({ maxTokens: 2500, reasoning: "high", signal });
    expect(byKind.short).toMatchObject({ maxTokens: 512, reasoning: "high", signal });
  });
});

describe("compact: errors (session-engine.md §6.4)", () => {
  it("history error", async () => {
    const f = fake({ history: { stopReason: "error", errorMessage: "boom" } });
    await expect(compact(preparation(), deps(f.summarize))).rejects.toThrow("Summarization failed: boom");
    const g = fake({ history: { stopReason: "error" } });
    await expect(compact(preparation(), deps(g.summarize))).rejects.toThrow("Summarization failed: Unknown error");
  });

  it("turn prefix error", async () => {
    const f = fake({ turnPrefix: { stopReason: "error", errorMessage: "nope" } });
    await expect(
      compact(preparation({ isSplitTurn: true, turnPrefixMessages: [user("t")] }), deps(f.summarize)),
    ).rejects.toThrow("Turn prefix summarization failed: nope");
  });

  it("short summary error", async () => {
    const f = fake({ short: { stopReason: "error", errorMessage: "" } });
    await expect(compact(preparation(), deps(f.summarize))).rejects.toThrow("Short summary failed: Unknown error");
  });

  it("lets adapter exceptions propagate unchanged", async () => {
    const err = new Error("Remote compaction failed (503 Service Unavailable)");
    await expect(compact(preparation(), deps(() => Promise.reject(err)))).rejects.toBe(err);
  });

  it("does not treat 'aborted' as an error (the orchestrator checks the signal)", async () => {
    const f = fake({ history: { stopReason: "aborted" }, short: { stopReason: "aborted" } });
    const result = await compact(preparation(), deps(f.summarize));
    expect(result.summary).toBe("");
    expect(result.firstKeptEntryId).toBe("keep-1");
  });
});
