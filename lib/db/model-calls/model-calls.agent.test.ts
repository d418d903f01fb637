/**
 * The real agent with the database store and the DB recorder: a tool loop, a manual compaction
 * of a split turn and a navigation with a branch summary record every kind of call (chat,
 * history, turnPrefix, short, branch); reads then find the entries each call produced and the
 * entries each message came from, and the inspector shows the compaction summary first.
 */
import { describe, expect, it } from "vitest";
import type { AgentTools } from "@/lib/agent/ports";
import { SessionAgent } from "@/lib/agent/session-agent";
import { ScriptedModel, StaticResolver, testClock, testSettings } from "@/test/agent-harness";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import { toolCall } from "@/test/session-factories";
import { useTestDatabase } from "@/test/db";
import { createAgentStore } from "../store/agent-store";
import { getModelCall, listModelCalls } from "@/lib/inspector/calls";
import { inspectEntry } from "@/lib/inspector/inspect";
import { createDbRecorder } from "./model-calls";
import { createSession, loadEntries, loadTree } from "..";

useTestDatabase();

const tools: AgentTools = {
  definitions: [{ name: "read", description: "Read a file", inputSchema: { type: "object" } }],
  execute: async () => ({ content: "file contents ".repeat(30) }),
};

describe("a session driven by the agent", () => {
  it("records every kind of call and maps them to entries", async () => {
    const { id: sessionId } = await createSession({});
    const { tree } = await loadTree({ sessionId });
    const now = testClock();
    const model = new ScriptedModel({
      now,
      chat: [
        { text: "answer one", usage: { input: 40, output: 4 } },
        { toolCalls: [toolCall("c1", "read", { path: "a.txt" })], usage: { input: 60, output: 6 } },
        { text: "done reading the file and summing it all up for you", usage: { input: 200, output: 12 } },
      ],
    });
    const recorder = createDbRecorder({ sessionId });
    const agent = new SessionAgent({
      tree,
      store: createAgentStore({ sessionId }),
      model,
      models: new StaticResolver([model]),
      settings: testSettings({ compaction: { keepRecentTokens: 10, autoContinue: false } }),
      prompts: TEST_PROMPTS,
      tools,
      systemPrompt: "SYS",
      recorder,
      now,
    });

    await agent.prompt("first question");
    await agent.prompt("read a.txt");
    await agent.compact();
    const firstAnswer = tree.getEntries().find((e) => e.type === "message" && e.message.role === "assistant")!;
    await agent.navigate(firstAnswer.id, { summarize: true });
    await recorder.flush();
    agent.dispose();

    const calls = await listModelCalls({ sessionId });
    expect(calls.map((c) => c.kind)).toEqual(expect.arrayContaining(["chat", "history", "turnPrefix", "short", "branch"]));
    expect(calls.filter((c) => c.kind === "chat")).toHaveLength(3);
    const entries = await loadEntries({ sessionId });
    const byId = new Map(entries.map((e) => [e.id, e]));
    for (const c of calls) {
      const produced = c.entryId ? byId.get(c.entryId) : undefined;
      const expectedType = c.kind === "chat" ? "message" : c.kind === "branch" ? "branch_summary" : "compaction";
      expect(produced?.type, `${c.kind} call ${c.seq}`).toBe(expectedType);
    }

    // The tool step's second call: system, tools, and every message traced to its entry.
    const last = calls.filter((c) => c.kind === "chat").at(-1)!;
    const detail = (await getModelCall({ sessionId, callId: last.id, prompts: TEST_PROMPTS }))!;
    expect(detail.request.system).toBe("SYS");
    expect(detail.request.tools).toEqual(tools.definitions);
    expect(detail.request.messages.map((m) => m.message.role)).toEqual(["user", "assistant", "user", "assistant", "toolResult"]);
    expect(detail.request.messages.every((m) => m.sourceEntryId !== null && byId.has(m.sourceEntryId))).toBe(true);
    expect(detail.previousCallId).toBe(calls.filter((c) => c.kind === "chat").at(-2)!.id);
    expect(detail.storage.baseCallId).toBe(detail.previousCallId);
    expect(detail.storage.storedMessages).toBe(2);

    const view = (await inspectEntry({ sessionId, entryId: last.entryId!, prompts: TEST_PROMPTS })) as Exclude<
      Awaited<ReturnType<typeof inspectEntry>>,
      "not_assistant" | null
    >;
    expect(view.origin).toBe("recorded");
    expect(view.messages.slice(-1).map((m) => m.kind)).toEqual(["new"]);
    expect(view.diff!.added.map((i) => i.role)).toEqual(["assistant", "toolResult"]);
  });
});
