/**
 * The offline model (conventions rule 6): chat replies, extractive summaries through the real
 * summarizer and the real compact() (session-engine.md §6), streaming, usage and aborts.
 */
import { generateText } from "ai";
import { describe, expect, it } from "vitest";
import { compact } from "@/lib/compaction/compact";
import { createFileOps } from "@/lib/compaction/file-ops";
import type { CompactionPreparation } from "@/lib/compaction/prepare";
import { serializeConversation } from "@/lib/compaction/serialize";
import { assistant, call, settings, toolResult, user } from "@/test/compaction-helpers";
import { createOfflineModel, OFFLINE_CHAT_REPLY, offlineSummaryKind } from "@/lib/llm/offline-model";
import { extractiveSummary } from "@/lib/llm/offline-summary";
import { loadPrompts } from "@/lib/llm/prompts";
import { createProviderRegistry } from "@/lib/llm/providers";
import { streamAssistant } from "@/lib/llm/stream-assistant";
import { createSummarizer } from "@/lib/llm/summarizer";

const prompts = loadPrompts();
const offline = (chunkDelayMs = 0) => createProviderRegistry({ offline: { chunkDelayMs } }).resolveModel();

const history = [
  user("Rename the config loader in lib/config.ts to readConfig. Do not change the public API."),
  assistant("I'll open the file first.", { calls: [call("t1", "read", { path: "lib/config.ts" })] }),
  toolResult("t1", "export function loadConfig() {}", { toolName: "read" }),
  assistant("I decided to keep a deprecated loadConfig alias instead of removing it.", {
    calls: [call("t2", "edit", { path: "lib/config.ts", oldText: "loadConfig", newText: "readConfig" })],
  }),
  toolResult("t2", "Error: file is read-only", { toolName: "edit" }),
  user("Now update the tests in test/config.test.ts too"),
];
const conversation = `<conversation>\n${serializeConversation(history)}\n</conversation>\n\n`;

describe("offline model: chat", () => {
  it("says no model is configured and names the environment variables", async () => {
    const model = offline();
    expect(model.info).toMatchObject({ provider: "offline", id: "offline", label: "Offline model", offline: true });
    const deltas: string[] = [];
    const msg = await streamAssistant({ model, messages: [user("hello")], onDelta: (e) => e.type === "text-delta" && deltas.push(e.delta) });
    expect(msg).toMatchObject({ provider: "offline", model: "offline", api: "offline", stopReason: "stop" });
    const text = msg.content[0]?.type === "text" ? msg.content[0].text : "";
    expect(text).toBe(OFFLINE_CHAT_REPLY);
    for (const name of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ARBOR_OPENAI_BASE_URL"]) expect(text).toContain(name);
    expect(deltas.length).toBeGreaterThan(3);
    expect(msg.usage.output).toBe(Math.ceil(text.length / 4));
    expect(msg.usage.input).toBeGreaterThan(0);
  });

  it("works through generateText (doGenerate) too", async () => {
    const { text } = await generateText({ model: createOfflineModel(), prompt: "hi" });
    expect(text).toBe(OFFLINE_CHAT_REPLY);
  });

  it("stops on abort with the partial text", async () => {
    const controller = new AbortController();
    const msg = await streamAssistant({
      model: offline(20),
      messages: [user("hello")],
      signal: controller.signal,
      onDelta: (e) => e.type === "text-delta" && controller.abort(),
    });
    expect(msg.stopReason).toBe("aborted");
    const text = msg.content[0]?.type === "text" ? msg.content[0].text : "";
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(OFFLINE_CHAT_REPLY.length);
  });
});

describe("offline model: extractive summaries (session-engine.md §6.2, §17)", () => {
  it("fills the requested headings with facts from the conversation", async () => {
    const res = await createSummarizer({ model: offline() })({
      kind: "history",
      systemPrompt: prompts.summarizationSystem,
      prompt: conversation + prompts.compactionSummary,
      maxTokens: 13107,
      reasoning: "high",
    });
    expect(res.stopReason).toBe("stop");
    const text = res.stopReason === "stop" ? res.text : "";
    for (const h of ["## Goal", "## Progress", "### Done", "### In Progress", "### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context"]) {
      expect(text).toContain(`${h}\n`);
    }
    expect(text).toContain("Rename the config loader in lib/config.ts to readConfig.");
    expect(text).toContain('- [x] read(path="lib/config.ts")');
    expect(text).toContain("- [x] I'll open the file first.");
    expect(text).toContain("- **Decision**: I decided to keep a deprecated loadConfig alias");
    expect(text).toContain("- Error: file is read-only");
    expect(text).toContain("1. Now update the tests in test/config.test.ts too");
    expect(text).toMatch(/## Critical Context\n(- .*\n)*- test\/config\.test\.ts/);
    expect(text).toContain("Do not change the public API.");
  });

  it("merges a previous summary", () => {
    const previous = "## Goal\nShip the loader rename\n\n## Progress\n### Done\n- [x] Listed the callers\n\n## Key Decisions\n- **Decision**: keep names short";
    const text = extractiveSummary(`${conversation}<previous-summary>\n${previous}\n</previous-summary>\n\n${prompts.compactionUpdateSummary}`);
    expect(text).toContain("Ship the loader rename");
    expect(text).toContain("- [x] Listed the callers");
    expect(text).toContain("- **Decision**: keep names short");
    expect(text.indexOf("Listed the callers")).toBeLessThan(text.indexOf('read(path="lib/config.ts")'));
  });

  it("answers the short-summary request with 2–3 first-person sentences and no question", async () => {
    const longSummary = extractiveSummary(conversation + prompts.compactionSummary);
    const res = await createSummarizer({ model: offline() })({
      kind: "short",
      systemPrompt: prompts.summarizationSystem,
      prompt: `${conversation}<previous-summary>\n${longSummary}\n</previous-summary>\n\n${prompts.compactionShortSummary}`,
      maxTokens: 512,
    });
    const text = res.stopReason === "stop" ? res.text : "";
    const sentences = text.split(/(?<=\.)\s+/).filter(Boolean);
    expect(sentences.length).toBeGreaterThanOrEqual(2);
    expect(sentences.length).toBeLessThanOrEqual(3);
    expect(text.startsWith("I ")).toBe(true);
    expect(text).not.toContain("?");
    expect(text).not.toContain("##");
  });

  it("uses the turn-prefix headings for a turn prefix", () => {
    const text = extractiveSummary(conversation + prompts.compactionTurnPrefix);
    expect(text).toMatch(/^## Original Request\nRename the config loader/);
    expect(text).toContain("## Early Progress\n");
    expect(text).toContain("## Context for Suffix\n");
  });

  it("stays bounded and deterministic on a long conversation", () => {
    const long = Array.from({ length: 400 }, (_, i) =>
      assistant(`Step ${i} done with a fairly long explanation that goes on and on. More text here.`, {
        calls: [call(`c${i}`, "read", { path: `src/module-${i}/file-${i}.ts` })],
      }),
    );
    const prompt = `<conversation>\n${serializeConversation([user("Big task"), ...long])}\n</conversation>\n\n${prompts.compactionSummary}`;
    const a = extractiveSummary(prompt);
    expect(a.length).toBeLessThanOrEqual(6000);
    expect(a).toContain("## Goal\nBig task");
    expect(a).toBe(extractiveSummary(prompt));
  });

  it("detects a summarization call from the system prompt when no kind is declared", async () => {
    const msg = await streamAssistant({
      model: offline(),
      system: prompts.summarizationSystem,
      messages: [user(conversation + prompts.branchSummary)],
    });
    const text = msg.content[0]?.type === "text" ? msg.content[0].text : "";
    expect(text).toContain("## Goal\n");
    expect(text).not.toContain("## Critical Context");
    expect(offlineSummaryKind({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })).toBeUndefined();
  });

  it("aborts a summary mid-stream", async () => {
    const controller = new AbortController();
    const res = await createSummarizer({ model: offline(20), onText: () => controller.abort() })({
      kind: "history",
      systemPrompt: prompts.summarizationSystem,
      prompt: conversation + prompts.compactionSummary,
      maxTokens: 13107,
      signal: controller.signal,
    });
    expect(res).toEqual({ stopReason: "aborted" });
  });

  it("drives the real compact() end to end", async () => {
    const prep: CompactionPreparation = {
      firstKeptEntryId: "keep-1",
      messagesToSummarize: history,
      turnPrefixMessages: [],
      recentMessages: [user("Also run the linter")],
      isSplitTurn: false,
      tokensBefore: 5000,
      fileOps: createFileOps(),
      settings: settings(),
      keepRecentTokens: 20_000,
      firstKeptEntryIndex: 6,
      turnStartIndex: -1,
    };
    prep.fileOps.read.add("lib/config.ts");
    const result = await compact(prep, { summarize: createSummarizer({ model: offline() }), prompts });
    expect(result.summary).toContain("## Goal\nRename the config loader");
    expect(result.summary).toContain("<read-files>\nlib/config.ts\n</read-files>");
    expect(result.shortSummary).toMatch(/^I worked on: /);
  });
});
