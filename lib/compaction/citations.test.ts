/**
 * Cited summaries (docs/session-engine.md §19.2): the cited prompt, tag parsing, and the offline
 * summariser tagging what it lifts with the entry it came from.
 */
import { describe, expect, it } from "vitest";
import { CITE_INSTRUCTION, citedIds, parseCitations, serializeWithSources } from "@/lib/compaction/citations";
import { compact } from "@/lib/compaction/compact";
import { prepareCompaction } from "@/lib/compaction/prepare";
import type { SummarizeRequest } from "@/lib/compaction/summarize-types";
import { TEST_PROMPTS, assistant, call, conversation, linkAll, msg, settings, toolResult, user, words } from "@/test/compaction-helpers";
import { extractiveSummary } from "@/lib/llm/offline-summary";
import type { SessionEntry } from "@/lib/session/types";

function recorder() {
  const requests: SummarizeRequest[] = [];
  const summarize = async (req: SummarizeRequest) => {
    requests.push(req);
    return { stopReason: "stop" as const, text: extractiveSummary(req.prompt) };
  };
  return { requests, summarize };
}

describe("parseCitations / citedIds", () => {
  it("splits text and tags, and gives the text back when joined", () => {
    const summary = "- Fixed `parseArgs` [src: 1a2b3c4d, 5e6f7a8b]\n- Ran the tests [Sources: 9c9c9c9c 0d0d0d0d]\n- Plain bullet [not a tag]";
    const segments = parseCitations(summary);
    expect(segments.filter((s) => "ids" in s)).toEqual([
      { ids: ["1a2b3c4d", "5e6f7a8b"], raw: "[src: 1a2b3c4d, 5e6f7a8b]" },
      { ids: ["9c9c9c9c", "0d0d0d0d"], raw: "[Sources: 9c9c9c9c 0d0d0d0d]" },
    ]);
    expect(segments.map((s) => ("ids" in s ? s.raw : s.text)).join("")).toBe(summary);
    expect(citedIds(`${summary}\n- again [src: 1a2b3c4d]`)).toEqual(["1a2b3c4d", "5e6f7a8b", "9c9c9c9c", "0d0d0d0d"]);
    expect(citedIds("no tags here")).toEqual([]);
  });

  it("serializeWithSources names each message's entry once, after its first role tag", () => {
    const text = serializeWithSources([user("hello"), assistant("hi", { calls: [call("c1", "read", { path: "a.ts" })] })], ["u1", "a1"], TEST_PROMPTS);
    expect(text).toBe('[User] (entry u1): hello\n\n[Assistant] (entry a1): hi\n\n[Assistant tool calls]: read(path="a.ts")');
  });
});

describe("compact with citeSources (§19.2)", () => {
  const path: SessionEntry[] = linkAll([
    msg("u0", user(`Please rename \`loadConfig\` in src/config.ts. You must keep the old export. ${words(60)}`)),
    msg("a0", assistant("I'll use a re-export.", { calls: [call("t1", "edit", { path: "src/config.ts" })] })),
    msg("r0", toolResult("t1", "Error: file is read-only", { toolName: "edit" })),
    ...conversation(3, 100).map((e) => ({ ...e, id: `x${e.id}` })),
  ]);

  it("off (the default), the prompt is exactly the contract's: no ids and no instruction", async () => {
    const r = recorder();
    await compact(prepareCompaction(path, settings({ keepRecentTokens: 250 }))!, { summarize: r.summarize, prompts: TEST_PROMPTS });
    const history = r.requests.find((q) => q.kind === "history")!;
    expect(history.prompt).not.toContain("(entry ");
    expect(history.prompt.endsWith("SUMMARY-PROMPT")).toBe(true);
  });

  it("on, the offline summariser tags every item it lifts with its entry", async () => {
    const r = recorder();
    const prep = prepareCompaction(path, settings({ keepRecentTokens: 250, citeSources: true }))!;
    expect(prep.sourceIds?.summarized.slice(0, 3)).toEqual(["u0", "a0", "r0"]);
    const result = await compact(prep, { summarize: r.summarize, prompts: { ...TEST_PROMPTS, compactionSummary: "## Goal\n## Constraints & Preferences\n## Done\n## Blocked" } }, { customInstructions: "names" });
    const history = r.requests.find((q) => q.kind === "history")!;
    expect(history.prompt).toContain(`${CITE_INSTRUCTION}\n\nAdditional focus: names`);
    expect(history.prompt).toContain("[User] (entry u0): Please rename");
    const lines = result.summary.split("\n");
    expect(lines.find((l) => l.includes("You must keep the old export"))).toMatch(/\[src: u0\]$/);
    expect(lines.find((l) => l.includes("re-export"))).toMatch(/\[src: a0\]$/);
    expect(lines.find((l) => l.includes('edit(path="src/config.ts")'))).toMatch(/\[src: a0\]$/);
    expect(lines.find((l) => l.includes("read-only"))).toMatch(/\[src: r0\]$/);
    // Every id cited is an entry of the summarised span.
    expect(citedIds(result.summary).every((id) => prep.sourceIds?.summarized.includes(id))).toBe(true);
  });
});
