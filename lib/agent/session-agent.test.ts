import { describe, expect, it } from "vitest";
import { CONFLICT_MESSAGE, ConflictError } from "@/lib/agent/ports";
import type { AgentTools } from "@/lib/agent/ports";
import { roles, setup } from "@/test/agent-harness";
import { HookRegistry } from "@/lib/hooks/registry";
import { toolCall } from "@/test/session-factories";
import type { AssistantMessage, SessionEntry } from "@/lib/session/types";

const messageRoles = (entries: SessionEntry[]) =>
  entries.map((e) => (e.type === "message" ? e.message.role : e.type));

describe("SessionAgent.prompt: a streamed turn", () => {
  it("saves the user and assistant messages with usage and stopReason, and reports them", async () => {
    const { agent, store, model, events, ofType } = setup({ systemPrompt: "SYS" });
    model!.script({ text: "Hello there friend", usage: { input: 10, output: 5 } });

    const last = await agent.prompt("hi");

    expect(last?.stopReason).toBe("stop");
    const stored = store.getEntries();
    expect(messageRoles(stored)).toEqual(["user", "assistant"]);
    const assistant = stored[1]?.type === "message" ? (stored[1].message as AssistantMessage) : undefined;
    expect(assistant).toMatchObject({
      stopReason: "stop",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
      content: [{ type: "text", text: "Hello there friend" }],
    });
    expect(store.getLeafId()).toBe(stored[1]?.id);
    expect(model!.requests[0]).toMatchObject({ system: "SYS" });
    expect(roles(model!.requests[0]!)).toEqual(["user"]);

    const deltas = ofType("message_delta").map((e) => (e.delta.type === "text-delta" ? e.delta.delta : ""));
    expect(deltas.join("")).toBe("Hello there friend");
    expect(ofType("message_end")[0]?.entryId).toBe(stored[1]?.id);
    expect(ofType("message_saved").map((e) => e.entryId)).toEqual(stored.map((e) => e.id));
    const order = events.map((e) => e.type).filter((t) => t !== "message_delta" && t !== "context_usage");
    // The user message's commit overlaps the model call (run-loop.ts), so it is reported saved
    // once the call is under way — and always before the assistant is.
    expect(order).toEqual(["turn_start", "message_start", "message_saved", "message_end", "message_saved", "turn_end"]);
    expect(ofType("context_usage").at(-1)?.usage.contextWindow).toBe(200_000);
  });

  it("records every chat call for the context inspector", async () => {
    const { agent, model, records } = setup({ systemPrompt: "SYS" });
    model!.script({ text: "ok", usage: { input: 3, output: 1 } });
    await agent.prompt("hi");
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: "chat",
      model: { provider: "anthropic", id: "claude-sonnet-4-5" },
      request: { system: "SYS" },
      response: { stopReason: "stop", usage: { input: 3, output: 1 } },
    });
    expect(records[0]!.request.messages.map((m) => m.role)).toEqual(["user"]);
    expect(records[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("stores a synthetic user message when asked", async () => {
    const { agent, store, model } = setup();
    model!.script({ text: "ok" });
    await agent.prompt("go on", { synthetic: true });
    const first = store.getEntries()[0];
    expect(first?.type === "message" && first.message).toMatchObject({ role: "user", synthetic: true });
  });

  it("throws without a model and while busy", async () => {
    await expect(setup({ model: null }).agent.prompt("hi")).rejects.toThrow("No model selected");
    const { agent, model } = setup();
    model!.script({ text: "slow", hang: true });
    const running = agent.prompt("one");
    await expect(agent.prompt("two")).rejects.toThrow("Agent is busy");
    agent.abort();
    await running;
  });

  it("surfaces a store conflict (the leaf moved elsewhere)", async () => {
    const { agent, store, model, ofType } = setup();
    model!.script({ text: "first" }, { text: "second" });
    await agent.prompt("one");
    // Someone else moves the stored leaf.
    await store.commit({ expectedLeafId: store.getLeafId(), entries: [], newLeafId: null });
    await expect(agent.prompt("two")).rejects.toBeInstanceOf(ConflictError);
    expect(ofType("error")[0]).toMatchObject({ message: CONFLICT_MESSAGE, conflict: true });
  });

  it("a failed commit of the user message stops the model call it overlapped: nothing is appended or recorded", async () => {
    const { agent, store, model, records, ofType } = setup();
    model!.script({ text: "first" }, { text: "never saved" });
    await agent.prompt("one");
    await store.commit({ expectedLeafId: store.getLeafId(), entries: [], newLeafId: null });
    const stored = store.getEntries().length;

    await expect(agent.prompt("two")).rejects.toBeInstanceOf(ConflictError);

    // The call went out with the commit in flight and was aborted when the commit failed.
    expect(model!.requests).toHaveLength(2);
    expect(model!.requests[1]?.signal?.aborted).toBe(true);
    expect(records).toHaveLength(1);
    expect(store.getEntries()).toHaveLength(stored);
    expect(ofType("message_end")).toHaveLength(1);
  });
});

describe("SessionAgent.prompt: tool loop", () => {
  const tools: AgentTools = {
    definitions: [
      { name: "read", description: "Read a file", inputSchema: { type: "object" } },
      { name: "boom", description: "Always fails", inputSchema: { type: "object" } },
    ],
    async execute(call) {
      if (call.name === "boom") throw new Error("kaboom");
      return { content: `contents of ${String(call.arguments.path)}`, details: { bytes: 3 } };
    },
  };

  it("runs each tool call in order, saves every result and calls the model again", async () => {
    const { agent, store, model, ofType } = setup({ tools });
    model!.script(
      { text: "Reading", toolCalls: [toolCall("c1", "read", { path: "a.ts" }), toolCall("c2", "boom")] },
      { text: "All done" },
    );

    const last = await agent.prompt("look");

    expect(last?.content).toEqual([{ type: "text", text: "All done" }]);
    const stored = store.getEntries();
    expect(messageRoles(stored)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
    const results = stored.flatMap((e) => (e.type === "message" && e.message.role === "toolResult" ? [e.message] : []));
    expect(results[0]).toMatchObject({
      toolCallId: "c1",
      toolName: "read",
      isError: false,
      content: [{ type: "text", text: "contents of a.ts" }],
      details: { bytes: 3 },
    });
    expect(results[1]).toMatchObject({ toolCallId: "c2", isError: true, content: [{ type: "text", text: "kaboom" }] });
    expect(roles(model!.requests[1]!)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
    expect(model!.requests[0]!.tools?.map((t) => t.name)).toEqual(["read", "boom"]);
    expect(ofType("tool_start").map((e) => e.toolCall.id)).toEqual(["c1", "c2"]);
    expect(ofType("tool_end").map((e) => e.entryId)).toEqual([stored[2]?.id, stored[3]?.id]);
    expect(ofType("turn_end").map((e) => e.toolResults.length)).toEqual([2, 0]);
  });

  it("caps the model calls of one run with a clear error", async () => {
    const { agent, model, ofType } = setup({ tools, maxSteps: 2 });
    model!.script(
      { toolCalls: [toolCall("c1", "read", { path: "x" })] },
      { toolCalls: [toolCall("c2", "read", { path: "y" })] },
    );
    await agent.prompt("loop");
    expect(model!.requests).toHaveLength(2);
    expect(ofType("error")[0]?.message).toBe("Stopped after 2 model calls in one run: the model kept calling tools.");
  });
});

describe("SessionAgent.prompt: abort, hooks and the queue", () => {
  it("an abort during a turn saves the partial assistant with stopReason aborted", async () => {
    const { agent, store, model, ofType } = setup();
    model!.script(() => {
      queueMicrotask(() => agent.abort());
      return { text: "partial answer", hang: true };
    });
    const last = await agent.prompt("go");
    expect(last?.stopReason).toBe("aborted");
    const stored = store.getEntries();
    expect(messageRoles(stored)).toEqual(["user", "assistant"]);
    expect(stored[1]?.type === "message" && stored[1].message).toMatchObject({
      stopReason: "aborted",
      content: [{ type: "text", text: "partial answer" }],
    });
    expect(ofType("auto_retry_start")).toHaveLength(0);
    expect(ofType("auto_compaction_start")).toHaveLength(0);
    expect(model!.requests).toHaveLength(1);
  });

  it("the context hook replaces the messages sent (session-engine.md §12)", async () => {
    const hooks = new HookRegistry();
    hooks.on("context", ({ messages }) => ({ messages: [...messages, { role: "user", content: "injected", timestamp: 1 }] }));
    const { agent, model } = setup({ hooks });
    model!.script({ text: "ok" });
    await agent.prompt("hi");
    expect(model!.requests[0]!.messages.map((m) => m.content)).toEqual(["hi", "injected"]);
  });

  it("sends turn_start and turn_end to hooks (session-engine.md §12)", async () => {
    const hooks = new HookRegistry();
    const seen: string[] = [];
    hooks.on("turn_start", (e) => void seen.push(`start ${e.turnIndex}`));
    hooks.on("turn_end", (e) => void seen.push(`end ${e.turnIndex} ${e.message.role}`));
    const { agent, model } = setup({ hooks });
    model!.script({ text: "ok" });
    await agent.prompt("hi");
    expect(seen).toEqual(["start 0", "end 0 assistant"]);
  });

  it("a queued message is sent after the current run", async () => {
    const { agent, store, model } = setup();
    model!.script(
      () => {
        agent.queueMessage({ role: "custom", customType: "note", content: "queued note", display: true });
        return { text: "first" };
      },
      { text: "second" },
    );
    const last = await agent.prompt("hi");
    expect(last?.content).toEqual([{ type: "text", text: "second" }]);
    expect(messageRoles(store.getEntries())).toEqual(["user", "assistant", "custom_message", "assistant"]);
    expect(model!.requests[1]!.messages.at(-1)).toMatchObject({ role: "user", content: [{ type: "text", text: "queued note" }] });
    expect(agent.getQueuedMessages()).toHaveLength(0);
  });
});
