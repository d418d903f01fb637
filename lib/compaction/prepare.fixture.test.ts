/**
 * Properties of cut points, preparation, compaction and pruning on the real pi fixture
 * (session-engine.md §5, §6, §8, §10). No expected numbers: the spec gives none for the fixture.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { compact } from "@/lib/compaction/compact";
import { computeFileLists } from "@/lib/compaction/file-ops";
import { prepareCompaction } from "@/lib/compaction/prepare";
import { DEFAULT_PRUNE_CONFIG, pruneToolOutputs, restorePrunedToolOutputs } from "@/lib/compaction/pruning";
import { serializeConversation } from "@/lib/compaction/serialize";
import type { SummarizeRequest } from "@/lib/compaction/summarize-types";
import { TEST_PROMPTS, settings } from "@/test/compaction-helpers";
import { estimateContextTokens, estimateTokens } from "@/lib/compaction/tokens";
import { convertToLlm } from "@/lib/session/file/convert";
import { loadSession } from "@/lib/session/file/load";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";
import { LARGE_SESSION, hasFixtures } from "@/test/fixtures";

const KEEPS = [1, 500, 2_000, 5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 1_000_000];

function isSorted(list: string[]): boolean {
  return list.every((v, i) => i === 0 || (list[i - 1] as string) <= v);
}

describe.skipIf(!hasFixtures)("compaction on the large pi fixture (session-engine.md §5, §6, §8)", () => {
  let path: SessionEntry[] = [];
  let pathMessages = 0;

  beforeAll(() => {
    const loaded = loadSession(readFileSync(LARGE_SESSION, "utf8"));
    path = loaded.tree.getBranch();
    pathMessages = path.filter((e) => e.type === "message" || e.type === "custom_message" || e.type === "branch_summary").length;
  });

  it("loads a long path", () => {
    expect(path.length).toBeGreaterThan(900);
  });

  it("never cuts at a toolResult, for many keepRecentTokens values", () => {
    for (const keepRecentTokens of KEEPS) {
      const prep = prepareCompaction(path, settings({ keepRecentTokens }));
      const first = path.find((e) => e.id === prep?.firstKeptEntryId);
      expect(first, `keep ${keepRecentTokens}`).toBeDefined();
      expect(first?.type === "message" ? first.message.role : first?.type).not.toBe("toolResult");
    }
  });

  it("keeps every kept toolResult together with its tool call", () => {
    for (const keepRecentTokens of KEEPS) {
      const prep = prepareCompaction(path, settings({ keepRecentTokens }));
      const kept = prep?.recentMessages ?? [];
      const callIds = new Set<string>();
      for (const m of kept) {
        if (m.role === "assistant") for (const b of m.content) if (b.type === "toolCall") callIds.add(b.id);
      }
      for (const m of kept) {
        if (m.role === "toolResult") expect(callIds.has(m.toolCallId), `keep ${keepRecentTokens}: ${m.toolCallId}`).toBe(true);
      }
    }
  });

  it("summarized + turn prefix + recent messages = every path message (no compaction yet)", () => {
    for (const keepRecentTokens of KEEPS) {
      const prep = prepareCompaction(path, settings({ keepRecentTokens }));
      if (!prep) throw new Error("expected a preparation");
      const n = prep.messagesToSummarize.length + prep.turnPrefixMessages.length + prep.recentMessages.length;
      expect(n, `keep ${keepRecentTokens}`).toBe(pathMessages);
      if (!prep.isSplitTurn) expect(prep.turnPrefixMessages).toEqual([]);
    }
  });

  it("a smaller budget never keeps more", () => {
    let previous = Number.POSITIVE_INFINITY;
    for (const keepRecentTokens of [...KEEPS].reverse()) {
      const kept = prepareCompaction(path, settings({ keepRecentTokens }))?.recentMessages.length ?? 0;
      expect(kept).toBeLessThanOrEqual(previous);
      previous = kept;
    }
  });

  it("compacts with a fake summarizer: sorted, disjoint file lists in details and in the summary", async () => {
    const prep = prepareCompaction(path, settings({ keepRecentTokens: 5_000 }));
    if (!prep) throw new Error("expected a preparation");
    const requests: SummarizeRequest[] = [];
    const result = await compact(prep, {
      prompts: TEST_PROMPTS,
      summarize: async (req) => {
        requests.push(req);
        return { stopReason: "stop", text: `S-${req.kind}` };
      },
    });
    const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
    expect(result.details).toEqual({ readFiles, modifiedFiles });
    expect(isSorted(readFiles) && isSorted(modifiedFiles)).toBe(true);
    expect(readFiles.some((f) => modifiedFiles.includes(f))).toBe(false);
    expect(modifiedFiles.length).toBeGreaterThan(0);
    expect(result.summary).toContain(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
    expect(result.firstKeptEntryId).toBe(prep.firstKeptEntryId);
    expect(requests.some((r) => r.kind === "history")).toBe(true);
  });

  it("converts and serializes the whole path", () => {
    const messages = path.flatMap((e) => (e.type === "message" ? [e.message] : [])) as AgentMessage[];
    const text = serializeConversation(convertToLlm(messages, TEST_PROMPTS));
    expect(text.startsWith("[User]: ")).toBe(true);
    expect(estimateContextTokens(messages).tokens).toBeGreaterThan(0);
  });

  it("prunes old tool outputs, protecting the newest window and read results, and can undo", () => {
    // The fixture's tool output is too small for the defaults to save 20k, so a small window is
    // used as well; the defaults must then change nothing at all.
    const configs = [DEFAULT_PRUNE_CONFIG, { protectTokens: 5_000, minimumSavings: 1_000, protectedTools: ["skill", "read"] }];
    let prunedSomething = false;
    for (const config of configs) {
      const copy = structuredClone(path);
      const out = pruneToolOutputs(copy, config, 42);
      if (out.prunedCount === 0) {
        expect(copy).toEqual(path);
        continue;
      }
      prunedSomething = true;
      expect(out.tokensSaved).toBeGreaterThanOrEqual(config.minimumSavings);
      let acc = 0;
      for (let i = path.length - 1; i >= 0; i--) {
        const before = path[i];
        const after = copy[i];
        if (before?.type !== "message" || before.message.role !== "toolResult" || after?.type !== "message") continue;
        const wasPruned = after.message.role === "toolResult" && after.message.prunedAt === 42;
        const isProtected = acc < config.protectTokens || config.protectedTools.includes(before.message.toolName);
        expect(wasPruned).toBe(!isProtected);
        acc += estimateTokens(before.message);
      }
      expect(restorePrunedToolOutputs(copy, out.pruned)).toBe(out.prunedCount);
      expect(copy).toEqual(path);
    }
    expect(prunedSomething).toBe(true);
  });
});
