/**
 * The inspector's reads on the real database: a recorded turn and its diff, a reconstructed turn
 * of an imported-style session (no calls), a summarization call, and the next-turn preview.
 */
import { describe, expect, it } from "vitest";
import { settings, TEST_PROMPTS } from "@/test/compaction-helpers";
import { PENDING_COMPACTION_ID } from "@/lib/inspector/preview";
import { RECONSTRUCTED_NOTE } from "@/lib/inspector/reconstruct";
import { assistantMsg, userMsg } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { MODEL, turn } from "@/test/inspector-turns";
import { createSession, loadEntries, recordModelCall } from "@/lib/db";
import { inspectCall, inspectEntry, inspectNextTurn } from "./inspect";

useTestDatabase();

const words = (n: number, tag: string) => `${tag} ${"word ".repeat(n)}`;

describe("inspectEntry", () => {
  it("shows the recorded call of an assistant entry, diffed against the previous call", async () => {
    const { id } = await createSession({});
    const a1 = assistantMsg("first", { timestamp: 1000, usage: { input: 10, output: 2 } });
    const a2 = assistantMsg("second", { timestamp: 2000, usage: { input: 30, output: 2 } });
    const l1 = await turn(id, null, "one", a1, true);
    const l2 = await turn(id, l1, "two", a2, true);
    const view = (await inspectEntry({ sessionId: id, entryId: l2, prompts: TEST_PROMPTS })) as Exclude<Awaited<ReturnType<typeof inspectEntry>>, "not_assistant" | null>;
    expect(view.origin).toBe("recorded");
    expect(view.entryId).toBe(l2);
    expect(view.system).toBe("SYS");
    expect(view.providerPromptTokens).toBe(30);
    expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(view.messages.every((m) => m.sourceEntryId !== null)).toBe(true);
    expect(view.messages.map((m) => m.kind)).toEqual(["history", "history", "new"]);
    expect(view.segments.map((s) => s.kind)).toEqual(["system", "history", "new"]);
    expect(view.previous?.origin).toBe("recorded");
    expect(view.diff!.added.map((i) => i.role)).toEqual(["assistant", "user"]);
    expect(view.diff!.removed).toEqual([]);
    expect(view.diff!.unchanged).toBe(1);
    expect(view.notes).toEqual([]);
  });

  it("reconstructs a turn without a recorded call and says so", async () => {
    const { id } = await createSession({});
    const l1 = await turn(id, null, "one", assistantMsg("first", { timestamp: 1000 }), false);
    const l2 = await turn(id, l1, "two", assistantMsg("second", { timestamp: 2000, usage: { input: 44, output: 1 } }), false);
    const view = (await inspectEntry({ sessionId: id, entryId: l2, prompts: TEST_PROMPTS })) as Exclude<Awaited<ReturnType<typeof inspectEntry>>, "not_assistant" | null>;
    expect(view.origin).toBe("reconstructed");
    expect(view.notes[0]).toBe(RECONSTRUCTED_NOTE);
    expect(view.callId).toBeNull();
    expect(view.providerPromptTokens).toBe(44);
    expect(view.messages).toHaveLength(3);
    expect(view.previous).toEqual({ origin: "reconstructed", callId: null, entryId: l1 });
    expect(view.diff!.added).toHaveLength(2);
  });

  it("refuses non-assistant and unknown entries", async () => {
    const { id } = await createSession({});
    await turn(id, null, "one", assistantMsg("first", { timestamp: 1000 }), false);
    const entries = await loadEntries({ sessionId: id });
    expect(await inspectEntry({ sessionId: id, entryId: entries[0]!.id, prompts: TEST_PROMPTS })).toBe("not_assistant");
    expect(await inspectEntry({ sessionId: id, entryId: "nope", prompts: TEST_PROMPTS })).toBeNull();
    expect(await inspectEntry({ sessionId: "nope", entryId: "x", prompts: TEST_PROMPTS })).toBeNull();
  });
});

describe("inspectCall", () => {
  it("shows a summarization call without a diff", async () => {
    const { id } = await createSession({});
    const { callId } = await recordModelCall({
      sessionId: id,
      call: {
        kind: "branch",
        model: MODEL,
        request: { system: "SUMMARIZE", messages: [userMsg("<conversation>…</conversation>")], maxOutputTokens: 2048 },
        response: { text: "They tried X.", stopReason: "stop" },
        startedAt: 5,
        durationMs: 7,
      },
    });
    const view = (await inspectCall({ sessionId: id, callId, prompts: TEST_PROMPTS }))!;
    expect(view).toMatchObject({ origin: "recorded", kind: "branch", diff: null, response: { text: "They tried X." } });
    expect(view.notes).toEqual(["Summarization call (branch summary)"]);
    expect(view.messages[0]!.kind).toBe("new");
  });
});

describe("inspectNextTurn", () => {
  it("previews a pending compaction with the last call's system prompt and tools", async () => {
    const { id } = await createSession({});
    let leaf: string | null = null;
    for (let t = 0; t < 8; t++) {
      const input = t === 7 ? 9_500 : 500;
      leaf = await turn(id, leaf, words(200, `q${t}`), assistantMsg(words(200, `a${t}`), { timestamp: (t + 1) * 1000, usage: { input, output: 100 } }), true);
    }
    const view = (await inspectNextTurn({
      sessionId: id,
      prompts: TEST_PROMPTS,
      settings: settings({ reserveTokens: 1000, keepRecentTokens: 300 }),
      model: { ref: MODEL.ref, provider: "anthropic", id: "claude-sonnet-4-5", contextWindow: 10_000 },
      now: 99_000,
    }))!;
    expect(view.origin).toBe("preview");
    expect(view.pending?.compaction).toMatchObject({ reason: "threshold", contextTokens: 9_600, threshold: 9_000 });
    expect(view.messages[0]).toMatchObject({ source: "compaction", sourceEntryId: PENDING_COMPACTION_ID, placeholder: true });
    expect(view.messages.at(-1)!.placeholder).toBe(true);
    expect(view.compaction?.entryId).toBe(PENDING_COMPACTION_ID);
    expect(view.messages.filter((m) => m.firstKept)).toHaveLength(1);
    expect(view.system).toBe("SYS");
    expect(view.tools).toHaveLength(1);
    expect(view.previous?.origin).toBe("recorded");
    expect(view.diff!.removed.length).toBeGreaterThan(0);
    expect(view.notes.some((n) => n.startsWith("An automatic compaction will run first"))).toBe(true);
    const entries: SessionEntry[] = await loadEntries({ sessionId: id });
    expect(entries.some((e) => e.type === "compaction")).toBe(false); // nothing was written
  });

  it("a view asked for again is the same until the session or its calls change, then follows them", async () => {
    const { id } = await createSession({});
    const l1 = await turn(id, null, "one", assistantMsg("first", { timestamp: 1000, usage: { input: 10, output: 2 } }), true);
    const preview = async () =>
      (await inspectNextTurn({ sessionId: id, prompts: TEST_PROMPTS, settings: settings(), model: { ref: MODEL.ref, provider: "fake", id: "m", contextWindow: 200_000 }, now: 5_000 }))!;
    const first = await preview();
    expect(first.system).toBe("SYS");
    expect(await preview()).toEqual(first);

    // A call recorded without a new entry (same entries): the preview takes the new call's system prompt.
    await recordModelCall({
      sessionId: id,
      call: {
        kind: "chat",
        model: MODEL,
        request: { system: "SYS-2", messages: [], tools: [], maxOutputTokens: 10 },
        response: { stopReason: "error", errorMessage: "boom" },
        startedAt: 3000,
        durationMs: 1,
      },
    });
    expect((await preview()).system).toBe("SYS-2");

    // New entries: the preview shows them.
    await turn(id, l1, "two", assistantMsg("second answer", { timestamp: 4000, usage: { input: 20, output: 2 } }), false);
    const later = await preview();
    expect(later.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(later.messages.at(-1)!.placeholder).toBe(true);
  });
});
