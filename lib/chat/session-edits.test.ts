/**
 * The session workspace's server actions (app/sessions/[id]/actions.ts → session-edits.ts) and
 * GET /api/models, on a real database: typed ActionResults, never throws for expected failures.
 */
import { describe, expect, it } from "vitest";
import { GET as modelsGet } from "@/app/api/models/route";
import { forkSession, setLabel, undoNavigation, updateSessionSettings } from "@/app/sessions/[id]/actions";
import { findSessionMeta, loadEntries } from "@/lib/db";
import { DEFAULT_SETTINGS } from "@/lib/settings";
import { useTestDatabase } from "@/test/db";
import { claimRun } from "@/lib/runs";
import { dataOf, MODEL_REF, navigate, newSession, readAll, seedHistory, useHarness } from "@/test/chat-harness";

useTestDatabase();

useHarness();

describe("setLabel", () => {
  it("labels an entry (the label entry becomes the leaf) and clears it with an empty label", async () => {
    const s = await newSession();
    const [u0] = await seedHistory(s.id, 1, 20);
    const set = await setLabel({ sessionId: s.id, entryId: u0!.id, label: " start " });
    expect(set.ok).toBe(true);
    if (!set.ok) return;
    expect(set.data.entryId).toBe(u0!.id);
    expect((await findSessionMeta({ id: s.id }))?.leafId).toBe(set.data.labelEntryId);
    const label = (await loadEntries({ sessionId: s.id })).find((e) => e.id === set.data.labelEntryId);
    expect(label).toMatchObject({ type: "label", targetId: u0!.id, label: "start" });
    const cleared = await setLabel({ sessionId: s.id, entryId: u0!.id, label: "" });
    expect(cleared.ok).toBe(true);
  });

  it("invalid_input, not_found, and conflict while a turn runs", async () => {
    const s = await newSession();
    const [u0] = await seedHistory(s.id, 1, 20);
    expect(await setLabel({ sessionId: s.id })).toMatchObject({ ok: false, error: "invalid_input" });
    expect(await setLabel({ sessionId: "missing", entryId: "x", label: "a" })).toMatchObject({ ok: false, error: "not_found" });
    expect(await setLabel({ sessionId: s.id, entryId: "nope", label: "a" })).toEqual({
      ok: false,
      error: "not_found",
      message: "Entry nope not found",
    });
    const run = await claimRun(s.id, "turn");
    try {
      expect(await setLabel({ sessionId: s.id, entryId: u0!.id, label: "a" })).toEqual({
        ok: false,
        error: "conflict",
        message: "A turn is already running in this session",
      });
    } finally {
      run.finish();
    }
  });
});

describe("forkSession", () => {
  it("creates a new session holding the path to the entry", async () => {
    const s = await newSession();
    const entries = await seedHistory(s.id, 2, 20);
    const result = await forkSession({ sessionId: s.id, entryId: entries[1]!.id, title: "Fork" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.id).not.toBe(s.id);
    const forked = await loadEntries({ sessionId: result.data.id });
    expect(forked.map((e) => e.id)).toEqual([entries[0]!.id, entries[1]!.id]);
    expect((await findSessionMeta({ id: result.data.id }))?.title).toBe("Fork");
    expect(await forkSession({ sessionId: s.id, entryId: "nope" })).toMatchObject({ ok: false, error: "not_found" });
  });
});

describe("undoNavigation", () => {
  it("moves the leaf back after a navigation, and refuses when the session moved since", async () => {
    const s = await newSession();
    const entries = await seedHistory(s.id, 2, 20);
    const chunks = await readAll(await navigate(s.id, { targetId: entries[1]!.id, summarize: false }));
    const [nav] = dataOf<{ leafId: string; previousLeafId: string }>(chunks, "navigated");
    expect(nav?.leafId).toBe(entries[1]!.id);
    const undo = await undoNavigation({ sessionId: s.id, leafId: nav!.previousLeafId, expectedLeafId: nav!.leafId });
    expect(undo).toEqual({ ok: true, data: { leafId: entries[3]!.id } });
    const stale = await undoNavigation({ sessionId: s.id, leafId: nav!.previousLeafId, expectedLeafId: nav!.leafId });
    expect(stale).toEqual({ ok: false, error: "conflict", message: "This session changed in another tab — reload" });
    expect(await undoNavigation({ sessionId: s.id, leafId: null, expectedLeafId: entries[3]!.id })).toEqual({
      ok: true,
      data: { leafId: null },
    });
  });
});

describe("updateSessionSettings", () => {
  it("merges a partial override, the models and the tool switches, and returns the effective settings", async () => {
    const s = await newSession();
    const first = await updateSessionSettings({
      sessionId: s.id,
      settings: { compaction: { reserveTokens: 1000 }, retry: { baseDelayMs: 10 } },
      chatModel: MODEL_REF,
      tools: { enabled: ["read"] },
    });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.data.settings.compaction).toEqual({ ...DEFAULT_SETTINGS.compaction, reserveTokens: 1000 });
    expect(first.data.agent).toEqual({ chatModel: MODEL_REF, tools: { enabled: ["read"] } });

    const second = await updateSessionSettings({ sessionId: s.id, settings: { compaction: { reserveTokens: null } }, tools: null });
    expect(second.ok).toBe(true);
    expect((await findSessionMeta({ id: s.id }))?.settings).toEqual({ retry: { baseDelayMs: 10 }, agent: { chatModel: MODEL_REF } });
  });

  it("reports every field error and changes nothing", async () => {
    const s = await newSession({ retry: { maxRetries: 1 } });
    const bad = await updateSessionSettings({
      sessionId: s.id,
      settings: { compaction: { reserveTokens: -1 }, nope: true },
    });
    expect(bad).toEqual({
      ok: false,
      error: "invalid_input",
      message: "compaction.reserveTokens: expected a positive integer; nope: unknown setting",
    });
    expect(await updateSessionSettings({ sessionId: s.id, chatModel: "gpt" })).toMatchObject({
      ok: false,
      error: "invalid_input",
      message: 'chatModel: expected a "provider/modelId" string',
    });
    expect(await updateSessionSettings({ sessionId: s.id, tools: { enabled: ["bash"] } })).toMatchObject({ ok: false, error: "invalid_input" });
    expect(await updateSessionSettings({ sessionId: "missing", settings: {} })).toMatchObject({ ok: false, error: "not_found" });
    expect((await findSessionMeta({ id: s.id }))?.settings).toEqual({ retry: { maxRetries: 1 } });
  });
});

describe("GET /api/models", () => {
  it("lists the registry's models with labels and context windows, the offline model last", async () => {
    const body = (await (await modelsGet(new Request("http://localhost/api/models"))).json()) as {
      models: { ref: string; label: string; contextWindow: number; offline: boolean }[];
      defaultModel: string;
    };
    expect(body.defaultModel).toBe(MODEL_REF);
    expect(body.models.map((m) => m.ref)).toEqual([MODEL_REF, "offline/offline"]);
    expect(body.models.at(-1)).toMatchObject({ label: "Offline model", offline: true });
    expect(body.models.every((m) => m.contextWindow > 0)).toBe(true);
  });
});
