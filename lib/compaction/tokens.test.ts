import { describe, expect, it } from "vitest";
import { assistant, bash, call, img, msg, toolResult, user, words } from "@/test/compaction-helpers";
import {
  calculateContextTokens,
  calculatePromptTokens,
  estimateContextTokens,
  estimateTokens,
  getContextUsage,
  getLastAssistantUsage,
  shouldCompact,
} from "@/lib/compaction/tokens";
import type { AgentMessage } from "@/lib/session/types";

describe("estimateTokens (session-engine.md §4)", () => {
  it("is ceil(chars / 4)", () => {
    expect(estimateTokens(user("abcde"))).toBe(2);
    expect(estimateTokens(user(""))).toBe(0);
    expect(estimateTokens(user(words(10)))).toBe(10);
  });

  it("user: text blocks count, images count 0", () => {
    expect(estimateTokens(user([{ type: "text", text: "abcd" }, img(), { type: "text", text: "efgh" }]))).toBe(2);
    expect(estimateTokens(user([img()]))).toBe(0);
  });

  it("assistant: text + thinking + tool name + JSON args", () => {
    const args = { path: "a.ts" };
    const m = assistant("abcd", { thinking: "efgh", calls: [call("c", "read", args)] });
    const chars = 4 + 4 + "read".length + JSON.stringify(args).length;
    expect(estimateTokens(m)).toBe(Math.ceil(chars / 4));
  });

  it("toolResult, custom and hookMessage: text plus 4800 chars per image", () => {
    expect(estimateTokens(toolResult("c", [{ type: "text", text: "abcd" }, img()]))).toBe(1 + 1200);
    const custom: AgentMessage = { role: "custom", customType: "x", content: [img(), img()], display: true, timestamp: 0 };
    expect(estimateTokens(custom)).toBe(2400);
    expect(estimateTokens({ ...custom, content: "abcdefgh" })).toBe(2);
    expect(estimateTokens({ ...custom, role: "hookMessage" })).toBe(2400);
  });

  it("bashExecution: command + output", () => {
    expect(estimateTokens(bash("ls", "ab"))).toBe(1);
    expect(estimateTokens(bash(words(3), words(5)))).toBe(8);
  });

  it("summaries: summary length", () => {
    expect(estimateTokens({ role: "branchSummary", summary: words(7), fromId: "x", timestamp: 0 })).toBe(7);
    expect(estimateTokens({ role: "compactionSummary", summary: words(9), tokensBefore: 1, timestamp: 0 })).toBe(9);
  });

  it("pythonExecution, fileMention and unknown roles count 0", () => {
    const py: AgentMessage = { role: "pythonExecution", code: words(50), output: words(50), exitCode: 0, cancelled: false, truncated: false, timestamp: 0 };
    expect(estimateTokens(py)).toBe(0);
    expect(estimateTokens({ role: "fileMention", files: [{ path: "a", content: words(99) }], timestamp: 0 })).toBe(0);
    expect(estimateTokens({ role: "mystery", text: words(9) } as unknown as AgentMessage)).toBe(0);
  });
});

describe("usage-based numbers (session-engine.md §4)", () => {
  it("calculateContextTokens sums the parts (example: 1800) and prefers totalTokens", () => {
    expect(calculateContextTokens({ input: 1000, output: 500, cacheRead: 200, cacheWrite: 100 })).toBe(1800);
    expect(calculateContextTokens({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe(0);
    expect(calculateContextTokens({ input: 1, output: 1, cacheRead: 1, cacheWrite: 1, totalTokens: 50 })).toBe(50);
    expect(calculateContextTokens({ input: 1, output: 1, cacheRead: 1, cacheWrite: 1, totalTokens: 0 })).toBe(4);
  });

  it("calculatePromptTokens excludes output, falling back to the context total", () => {
    expect(calculatePromptTokens({ input: 1000, output: 500, cacheRead: 200, cacheWrite: 100 })).toBe(1300);
    expect(calculatePromptTokens({ input: 0, output: 500, cacheRead: 0, cacheWrite: 0, totalTokens: 700 })).toBe(700);
  });

  it("getLastAssistantUsage takes the newest usable assistant (example)", () => {
    const entries = [
      msg("1", user("q")),
      msg("2", assistant("a", { usage: { input: 100 } })),
      msg("3", user("q2")),
      msg("4", assistant("b", { usage: { input: 200 } })),
    ];
    expect(getLastAssistantUsage(entries)?.input).toBe(200);
  });

  it("getLastAssistantUsage skips aborted and error assistants", () => {
    const entries = [
      msg("1", assistant("a", { usage: { input: 100 } })),
      msg("2", assistant("b", { usage: { input: 200 }, stopReason: "error" })),
      msg("3", assistant("c", { usage: { input: 300 }, stopReason: "aborted" })),
      msg("4", user("after")),
    ];
    expect(getLastAssistantUsage(entries)?.input).toBe(100);
  });

  it("getLastAssistantUsage is undefined without an assistant", () => {
    expect(getLastAssistantUsage([msg("1", user("q"))])).toBeUndefined();
    expect(getLastAssistantUsage([])).toBeUndefined();
  });

  it("shouldCompact (example: window 100000, reserve 10000)", () => {
    const s = { enabled: true, reserveTokens: 10000 };
    expect(shouldCompact(95000, 100000, s)).toBe(true);
    expect(shouldCompact(89000, 100000, s)).toBe(false);
    expect(shouldCompact(90000, 100000, s)).toBe(false);
    expect(shouldCompact(95000, 100000, { ...s, enabled: false })).toBe(false);
  });
});

describe("estimateContextTokens / getContextUsage (session-engine.md §4)", () => {
  it("uses the last assistant usage (even aborted) plus estimates after it", () => {
    const messages: AgentMessage[] = [
      user(words(100)),
      assistant("x", { usage: { input: 1000, output: 10 } }),
      user(words(5)),
      assistant("y", { usage: { input: 2000, output: 20 }, stopReason: "aborted" }),
      user(words(7)),
      toolResult("c", words(3)),
    ];
    expect(estimateContextTokens(messages)).toEqual({ tokens: 2030, usageTokens: 2020, trailingTokens: 10, lastUsageIndex: 3 });
  });

  it("estimates everything when no assistant has usage", () => {
    expect(estimateContextTokens([user(words(4)), bash(words(2), words(2))])).toEqual({
      tokens: 8,
      usageTokens: 0,
      trailingTokens: 8,
      lastUsageIndex: null,
    });
  });

  it("getContextUsage adds window and percent; undefined for no window or <= 0", () => {
    const messages = [user(words(50))];
    expect(getContextUsage(messages, 200)).toEqual({
      tokens: 50,
      contextWindow: 200,
      percent: 25,
      usageTokens: 0,
      trailingTokens: 50,
      lastUsageIndex: null,
    });
    expect(getContextUsage(messages, 0)).toBeUndefined();
    expect(getContextUsage(messages, -5)).toBeUndefined();
    expect(getContextUsage(messages, undefined)).toBeUndefined();
  });
});
