/**
 * The inspector's reads on the real database: its data of a page load in at most
 * three statements once the read model is current (one when the call bodies are cached), the call list as fresh as the database on
 * every read (it rides on the version check, never cached by rev), and a pruned tool result
 * matched to its entry whether the prune was seen by this process or read back after a restart.
 */
import { describe, expect, it } from "vitest";
import { settings, TEST_PROMPTS } from "@/test/compaction-helpers";
import { appendEntries, applyPrune, createSession, recordModelCall } from "@/lib/db";
import { configureReadModel } from "@/lib/db/read-model";
import { assistantMsg, toolCall, toolResultMsg, userMsg } from "@/test/session-factories";
import type { ToolResultMessage } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { MODEL, turn } from "@/test/inspector-turns";
import { countStatements } from "@/test/statements";
import { getModelCall, listModelCalls } from "./calls";
import { clearBodiesCache } from "./bodies";
import { inspectEntry, inspectNextTurn } from "./inspect";

useTestDatabase();

const NEXT = { settings: settings(), model: { ref: MODEL.ref, provider: MODEL.provider, id: MODEL.id, contextWindow: 10_000 } };

async function recordedSession() {
  const { id } = await createSession({});
  let leaf: string | null = null;
  for (let t = 0; t < 3; t++) leaf = await turn(id, leaf, `q${t}`, assistantMsg(`a${t}`, { timestamp: (t + 1) * 1000, usage: { input: 10 * (t + 1), output: 2 } }), true);
  return { id, leaf: leaf! };
}

describe("the inspector's statement budget", () => {
  it("reads a page load's inspector data (call list + the leaf's turn) in three statements", async () => {
    const { id, leaf } = await recordedSession();
    await listModelCalls({ sessionId: id }); // the page itself has brought the read model up to date
    const { result, statements } = await countStatements(async () => {
      const calls = await listModelCalls({ sessionId: id });
      const turnView = await inspectEntry({ sessionId: id, entryId: leaf, prompts: TEST_PROMPTS });
      return { calls, turnView };
    });
    expect(result.calls).toHaveLength(3);
    expect(result.turnView).toMatchObject({ origin: "recorded", entryId: leaf, previous: { origin: "recorded" } });
    expect(statements).toBe(3);

    // Recorded lists never change: the same view again reads only the version check (and calls)…
    const again = await countStatements(() => inspectEntry({ sessionId: id, entryId: leaf, prompts: TEST_PROMPTS }));
    expect(again.statements).toBe(1);
    expect(again.result).toEqual(result.turnView);
    // …and after a restart (empty caches) the same view, read again.
    clearBodiesCache();
    configureReadModel({ clear: true });
    const cold = await countStatements(() => inspectEntry({ sessionId: id, entryId: leaf, prompts: TEST_PROMPTS }));
    expect(cold.result).toEqual(result.turnView);
  });

  it("reads the next-turn preview in two statements and an imported session's turn in one", async () => {
    const { id } = await recordedSession();
    await listModelCalls({ sessionId: id });
    const preview = await countStatements(() => inspectNextTurn({ sessionId: id, prompts: TEST_PROMPTS, ...NEXT }));
    expect(preview.result).toMatchObject({ origin: "preview", system: "SYS", previous: { origin: "recorded" } });
    expect(preview.statements).toBe(2);

    const imported = await createSession({});
    let leaf: string | null = null;
    for (let t = 0; t < 3; t++) leaf = await turn(imported.id, leaf, `q${t}`, assistantMsg(`a${t}`, { timestamp: (t + 1) * 1000 }), false);
    await listModelCalls({ sessionId: imported.id });
    const rebuilt = await countStatements(() => inspectEntry({ sessionId: imported.id, entryId: leaf!, prompts: TEST_PROMPTS }));
    expect(rebuilt.result).toMatchObject({ origin: "reconstructed", previous: { origin: "reconstructed" } });
    expect(rebuilt.statements).toBe(1);
  });
});

describe("freshness", () => {
  it("shows a call recorded after the last read, though the session's entries did not change", async () => {
    const { id } = await recordedSession();
    expect(await listModelCalls({ sessionId: id })).toHaveLength(3);
    // A summarization that was cancelled: its call is recorded, no entry is written.
    await recordModelCall({
      sessionId: id,
      call: { kind: "history", model: MODEL, request: { system: "S", messages: [userMsg("x")] }, response: { text: "", stopReason: "aborted" }, startedAt: 9, durationMs: 1 },
    });
    const after = await listModelCalls({ sessionId: id });
    expect(after.map((c) => c.kind)).toEqual(["chat", "chat", "chat", "history"]);
  });

  it("matches a pruned tool result to its entry, seen live and after a restart", async () => {
    const { id } = await createSession({});
    const call = toolCall("c1", "read", { path: "a" });
    const { entries } = await appendEntries({
      sessionId: id,
      expectedLeafId: null,
      entries: [
        { type: "message", message: userMsg("read a", { timestamp: 1 }) },
        { type: "message", message: assistantMsg("", { toolCalls: [call], timestamp: 2, stopReason: "toolUse" }) },
        { type: "message", message: toolResultMsg("c1", "the whole file", { toolName: "read", timestamp: 3 }) },
      ],
    });
    const resultId = entries[2]!.id;
    // The call sent the original tool output…
    const leaf = await turn(id, resultId, "next", assistantMsg("done", { timestamp: 10 }), true);
    expect((await inspectEntry({ sessionId: id, entryId: leaf, prompts: TEST_PROMPTS }) as { messages: { sourceEntryId: string | null }[] }).messages.map((m) => m.sourceEntryId)).toContain(resultId);
    // …then the output is pruned: the recorded call still maps to the entry, through its kept original.
    const original = entries[2]!.type === "message" ? (entries[2]!.message as ToolResultMessage) : undefined;
    await applyPrune({ sessionId: id, pruned: [{ entryId: resultId, message: { ...original!, content: [{ type: "text", text: "[pruned]" }], prunedAt: 20 } }] });
    for (const restart of [false, true]) {
      if (restart) {
        configureReadModel({ clear: true });
        clearBodiesCache();
        await listModelCalls({ sessionId: id }); // reloads the read model
        // The Calls list matches no sent message: it does not read the pruned originals.
        expect((await countStatements(() => listModelCalls({ sessionId: id }))).statements).toBe(1);
      }
      const [last] = (await listModelCalls({ sessionId: id })).slice(-1);
      expect(last!.entryId).toBe(leaf);
      const detail = (await getModelCall({ sessionId: id, callId: last!.id, prompts: TEST_PROMPTS }))!;
      const sources = detail.request.messages.map((m) => m.sourceEntryId);
      expect(sources).toContain(resultId);
      expect(sources.every((s) => s !== null)).toBe(true);
    }
  });
});
