/**
 * Recording model calls on the real database: every kind read back exactly, produced entries
 * and source entries matched at read time, attach, the previous call for the diff, and the
 * recorder's ordering.
 */
import { describe, expect, it } from "vitest";
import type { AgentModelInfo, ModelCallRecord } from "@/lib/agent/ports";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import { convertToLlm } from "@/lib/session/file/convert";
import { assistantMsg, toolCall, toolResultMsg, userMsg } from "@/test/session-factories";
import type { LlmMessage, SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { NotFoundError } from "../errors";
import { findCallForEntry, getModelCall, listModelCalls } from "@/lib/inspector/calls";
import { attachCallEntry, createDbRecorder, recordModelCall } from "./model-calls";
import { appendEntries, createSession } from "..";

useTestDatabase();

const MODEL: AgentModelInfo = {
  provider: "openai-compatible",
  id: "fake-1",
  ref: "openai-compatible/fake-1",
  contextWindow: 32_000,
  maxOutputTokens: 4096,
  reasoning: true,
};
const TOOLS = [{ name: "read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } } }];
const T = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

function chatCall(messages: LlmMessage[], answer = assistantMsg("done", { usage: { input: 120, cacheRead: 30, output: 7 } })): ModelCallRecord {
  return {
    kind: "chat",
    model: MODEL,
    request: { system: "You are Arbor's agent.", messages, tools: TOOLS, maxOutputTokens: 4096 },
    response: { message: answer, usage: answer.usage, stopReason: answer.stopReason },
    startedAt: T,
    durationMs: 321,
  };
}

function summaryCall(kind: "history" | "turnPrefix" | "short" | "branch", text: string, startedAt = T): ModelCallRecord {
  return {
    kind,
    model: MODEL,
    request: {
      system: "SYSTEM-PROMPT",
      messages: [userMsg([{ type: "text", text: `<conversation>…</conversation> ${kind}` }], { timestamp: startedAt })],
      maxOutputTokens: kind === "branch" ? 2048 : 512,
      ...(kind === "branch" ? {} : { reasoning: "high" as const }),
    },
    response: { text, stopReason: "stop" },
    startedAt,
    durationMs: 40,
  };
}

describe("recordModelCall / getModelCall", () => {
  it("reads a chat call back exactly: system, messages in order, tools, settings, usage, timing", async () => {
    const { id } = await createSession({});
    const messages: LlmMessage[] = [
      userMsg("list the files"),
      assistantMsg("", { toolCalls: [toolCall("c1", "read", { path: "a.txt" })] }),
      toolResultMsg("c1", "hello\u0001 world", { toolName: "read" }),
    ];
    const call = chatCall(messages);
    const rec = await recordModelCall({ sessionId: id, call });
    expect(rec).toMatchObject({ seq: 0, storedMessages: 3 });

    const got = (await getModelCall({ sessionId: id, callId: rec.callId, prompts: TEST_PROMPTS }))!;
    expect(got.request.system).toBe("You are Arbor's agent.");
    expect(got.request.messages.map((m) => m.message)).toEqual(messages);
    expect(got.request.tools).toEqual(TOOLS);
    expect(got.request.settings).toEqual({ maxOutputTokens: 4096 });
    expect(got.response).toEqual({ message: call.response.message, usage: call.response.usage, stopReason: "stop" });
    expect(got).toMatchObject({
      kind: "chat",
      model: "openai-compatible/fake-1",
      modelInfo: MODEL,
      startedAt: new Date(T).toISOString(),
      durationMs: 321,
      promptTokens: 150,
      messageCount: 3,
      previousCallId: null,
      entryId: null,
      storage: { baseCallId: null, baseKeep: 0, chainDepth: 0, storedMessages: 3 },
    });
  });

  it("records every summarization kind and an error", async () => {
    const { id } = await createSession({});
    const kinds = ["history", "turnPrefix", "short", "branch"] as const;
    for (const kind of kinds) await recordModelCall({ sessionId: id, call: summaryCall(kind, `${kind} text`) });
    const failed: ModelCallRecord = {
      ...summaryCall("history", ""),
      response: { stopReason: "error", errorMessage: "503 overloaded" },
    };
    await recordModelCall({ sessionId: id, call: failed });

    const list = await listModelCalls({ sessionId: id });
    expect(list.map((c) => [c.seq, c.kind, c.stopReason, c.errorMessage])).toEqual([
      [0, "history", "stop", null],
      [1, "turnPrefix", "stop", null],
      [2, "short", "stop", null],
      [3, "branch", "stop", null],
      [4, "history", "error", "503 overloaded"],
    ]);
    const branch = (await getModelCall({ sessionId: id, callId: list[3]!.id, prompts: TEST_PROMPTS }))!;
    expect(branch.request.settings).toEqual({ maxOutputTokens: 2048 });
    expect(branch.response).toEqual({ text: "branch text", stopReason: "stop" });
    expect(branch.request.messages.map((m) => m.message)).toEqual(summaryCall("branch", "").request.messages);
    const history = (await getModelCall({ sessionId: id, callId: list[0]!.id, prompts: TEST_PROMPTS }))!;
    expect(history.request.settings).toEqual({ maxOutputTokens: 512, reasoning: "high" });
    expect(history.request.system).toBe("SYSTEM-PROMPT");
    expect(history.request.tools).toBeNull();
    const error = (await getModelCall({ sessionId: id, callId: list[4]!.id, prompts: TEST_PROMPTS }))!;
    expect(error.response).toEqual({ stopReason: "error", errorMessage: "503 overloaded" });
    expect(error.promptTokens).toBeNull();
  });

  it("stores a growing chat list as a delta and names the previous chat call", async () => {
    const { id } = await createSession({});
    const u1 = userMsg("one", { timestamp: 1 });
    const a1 = assistantMsg("first answer", { timestamp: 2 });
    const u2 = userMsg("two", { timestamp: 3 });
    const a2 = assistantMsg("second answer", { timestamp: 4 });
    const u3 = userMsg("three", { timestamp: 5 });
    const first = await recordModelCall({ sessionId: id, call: chatCall([u1, a1, u2], a2) });
    await recordModelCall({ sessionId: id, call: summaryCall("short", "x") });
    const second = await recordModelCall({ sessionId: id, call: chatCall([u1, a1, u2, a2, u3], assistantMsg("third answer")) });
    expect(second.storedMessages).toBe(2);
    expect(second.newContents).toBe(2); // u3 and its answer; a2 was stored as the first response
    const got = (await getModelCall({ sessionId: id, callId: second.callId, prompts: TEST_PROMPTS }))!;
    expect(got.request.messages.map((m) => m.message)).toEqual([u1, a1, u2, a2, u3]);
    expect(got.previousCallId).toBe(first.callId);
    expect(got.storage).toEqual({ baseCallId: first.callId, baseKeep: 3, chainDepth: 1, storedMessages: 2 });
    // A short reused prefix (1 of 3) is stored in full instead.
    const short = await recordModelCall({ sessionId: id, call: chatCall([u1, userMsg("other"), userMsg("more")]) });
    expect(short.storedMessages).toBe(3);
  });

  it("is scoped by session and refuses unknown sessions", async () => {
    const a = await createSession({});
    const b = await createSession({});
    const rec = await recordModelCall({ sessionId: a.id, call: chatCall([userMsg("hi")]) });
    expect(await getModelCall({ sessionId: b.id, callId: rec.callId, prompts: TEST_PROMPTS })).toBeNull();
    await expect(recordModelCall({ sessionId: "nope", call: chatCall([userMsg("hi")]) })).rejects.toBeInstanceOf(NotFoundError);
    await expect(attachCallEntry({ sessionId: b.id, callId: rec.callId, entryId: "e" })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("entries at read time", () => {
  it("matches produced and source entries, and attach wins", async () => {
    const { id } = await createSession({});
    const u1 = userMsg("question", { timestamp: T - 1000 });
    const a1 = assistantMsg("answer", { timestamp: T + 10, usage: { input: 50, output: 5 } });
    const call = await recordModelCall({ sessionId: id, call: chatCall([u1], a1) });
    const history = await recordModelCall({ sessionId: id, call: summaryCall("history", "They asked a question.", T + 20) });
    const { entries } = await appendEntries({
      sessionId: id,
      expectedLeafId: null,
      entries: [
        { type: "message", message: u1 },
        { type: "message", message: a1 },
      ],
    });
    const [ue, ae] = entries as [SessionEntry, SessionEntry];
    await appendEntries({
      sessionId: id,
      expectedLeafId: ae.id,
      entries: [{ type: "compaction", summary: "They asked a question.\n\n<read-files>\n</read-files>", firstKeptEntryId: ae.id, tokensBefore: 55 }],
    });

    const list = await listModelCalls({ sessionId: id });
    expect(list.find((c) => c.id === call.callId)!.entryId).toBe(ae.id);
    expect(list.find((c) => c.id === history.callId)!.entryId).not.toBeNull();
    const got = (await getModelCall({ sessionId: id, callId: call.callId, prompts: TEST_PROMPTS }))!;
    expect(got.request.messages.map((m) => [m.sourceEntryId, m.source])).toEqual([[ue.id, "entry"]]);
    expect(await findCallForEntry({ sessionId: id, entryId: ae.id, entry: ae })).toBe(call.callId);

    await attachCallEntry({ sessionId: id, callId: call.callId, entryId: "other" });
    expect((await listModelCalls({ sessionId: id })).find((c) => c.id === call.callId)!.entryId).toBe("other");
    expect(await findCallForEntry({ sessionId: id, entryId: "other" })).toBe(call.callId);
  });

  it("maps a compaction summary sent to the model to its compaction entry", async () => {
    const { id } = await createSession({});
    const { entries } = await appendEntries({
      sessionId: id,
      expectedLeafId: null,
      entries: [
        { type: "message", message: userMsg("old", { timestamp: 1 }) },
        { type: "message", message: assistantMsg("old answer", { timestamp: 2 }) },
      ],
    });
    const comp = await appendEntries({
      sessionId: id,
      expectedLeafId: entries[1]!.id,
      entries: [{ type: "compaction", summary: "S", firstKeptEntryId: entries[1]!.id, tokensBefore: 9 }],
    });
    const compaction = comp.entries[0]!;
    const summary = { role: "compactionSummary" as const, summary: "S", tokensBefore: 9, timestamp: Date.parse(compaction.timestamp) };
    const sent = [...convertToLlm([summary], TEST_PROMPTS), assistantMsg("old answer", { timestamp: 2 }), userMsg("new")];
    const rec = await recordModelCall({ sessionId: id, call: chatCall(sent) });
    const got = (await getModelCall({ sessionId: id, callId: rec.callId, prompts: TEST_PROMPTS }))!;
    expect(got.request.messages.map((m) => [m.sourceEntryId, m.source])).toEqual([
      [compaction.id, "compaction"],
      [entries[1]!.id, "entry"],
      [null, "none"],
    ]);
  });
});

describe("createDbRecorder", () => {
  it("writes calls in report order, even when reported without waiting", async () => {
    const { id } = await createSession({});
    const seen: number[] = [];
    const recorder = createDbRecorder({ sessionId: id, onRecorded: (r) => seen.push(r.seq) });
    const history: LlmMessage[] = [];
    for (let i = 0; i < 6; i++) {
      history.push(userMsg(`q${i}`, { timestamp: i }));
      void recorder.record(chatCall([...history], assistantMsg(`a${i}`, { timestamp: i + 0.5 })));
      history.push(assistantMsg(`a${i}`, { timestamp: i + 0.5 }));
    }
    void recorder.record(summaryCall("short", "s"));
    await recorder.flush();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const list = await listModelCalls({ sessionId: id });
    expect(list.map((c) => c.messageCount)).toEqual([1, 3, 5, 7, 9, 11, 1]);
  });

  it("a failed write rejects that record and the next still runs; concurrent writers never share a seq", async () => {
    const { id } = await createSession({});
    const recorder = createDbRecorder({ sessionId: id });
    const bad = { ...chatCall([userMsg("x")]), startedAt: Number.NaN };
    await expect(recorder.record(bad)).rejects.toThrow();
    await recorder.record(chatCall([userMsg("y")]));
    const parallel = await Promise.all(
      ["history", "turnPrefix", "short"].map((k) => recordModelCall({ sessionId: id, call: summaryCall(k as "history", k) })),
    );
    expect(new Set(parallel.map((r) => r.seq)).size).toBe(3);
    expect((await listModelCalls({ sessionId: id })).map((c) => c.seq)).toEqual([0, 1, 2, 3]);
  });
});
