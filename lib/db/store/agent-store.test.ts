/** The AgentStore port on a real database: atomic optimistic commits, prune persistence, settings. */
import { describe, expect, it } from "vitest";
import { isConflictError } from "@/lib/agent/ports";
import { assistantMsg, text, toolCall, toolResultMsg, userMsg } from "@/test/session-factories";
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { createAgentStore, writeSessionSettings } from "./agent-store";
import { createSession, findSessionMeta, getPrunedOriginals, loadEntries, NotFoundError, softDeleteSession } from "..";

useTestDatabase();

type Message = Extract<SessionEntry, { type: "message" }>["message"];
const entry = (id: string, parentId: string | null, message: Message): SessionEntry =>
  ({ type: "message", id, parentId, timestamp: new Date(0).toISOString(), message }) as SessionEntry;

describe("createAgentStore", () => {
  it("commits entries and the leaf in one write, and refuses a stale leaf with a ConflictError", async () => {
    const { id } = await createSession();
    const store = createAgentStore({ sessionId: id });
    const u = entry("aaaa0001", null, userMsg("hi"));
    const a = entry("aaaa0002", "aaaa0001", assistantMsg("hello"));
    await store.commit({ expectedLeafId: null, entries: [u, a], newLeafId: "aaaa0002" });
    expect((await findSessionMeta({ id }))?.leafId).toBe("aaaa0002");

    const stale = store.commit({ expectedLeafId: null, entries: [entry("aaaa0003", null, userMsg("x"))], newLeafId: "aaaa0003" });
    const err = await stale.catch((e: unknown) => e);
    expect(isConflictError(err)).toBe(true);
    expect((err as Error).name).toBe("ConflictError");
    expect((await loadEntries({ sessionId: id })).map((e) => e.id)).toEqual(["aaaa0001", "aaaa0002"]);

    await store.commit({ expectedLeafId: "aaaa0002", entries: [], newLeafId: "aaaa0001" });
    expect((await findSessionMeta({ id }))?.leafId).toBe("aaaa0001");
  });

  it("persists pruned tool results and keeps their original content", async () => {
    const { id } = await createSession();
    const store = createAgentStore({ sessionId: id });
    const result = toolResultMsg("c1", "a very long output");
    await store.commit({
      expectedLeafId: null,
      entries: [
        entry("bbbb0001", null, userMsg("go")),
        entry("bbbb0002", "bbbb0001", assistantMsg("", { toolCalls: [toolCall("c1", "read")] })),
        entry("bbbb0003", "bbbb0002", result),
      ],
      newLeafId: "bbbb0003",
    });
    const pruned: ToolResultMessage = { ...result, content: [text("[output pruned]")], prunedAt: 5 };
    await store.persistPrune([{ entryId: "bbbb0003", originalContent: result.content, message: pruned }]);
    const stored = (await loadEntries({ sessionId: id })).find((e) => e.id === "bbbb0003");
    expect(stored).toMatchObject({ message: { content: [text("[output pruned]")], prunedAt: 5 } });
    expect((await getPrunedOriginals({ sessionId: id })).get("bbbb0003")).toEqual(result.content);
  });
});

describe("writeSessionSettings", () => {
  it("replaces and clears the settings document; refuses unknown and deleted sessions", async () => {
    const { id } = await createSession();
    await writeSessionSettings({ sessionId: id, settings: { retry: { maxRetries: 1 } } });
    expect((await findSessionMeta({ id }))?.settings).toEqual({ retry: { maxRetries: 1 } });
    await writeSessionSettings({ sessionId: id, settings: null });
    expect((await findSessionMeta({ id }))?.settings).toBeNull();
    await expect(writeSessionSettings({ sessionId: "missing", settings: {} })).rejects.toBeInstanceOf(NotFoundError);
    await softDeleteSession({ id });
    await expect(writeSessionSettings({ sessionId: id, settings: {} })).rejects.toBeInstanceOf(NotFoundError);
  });
});
