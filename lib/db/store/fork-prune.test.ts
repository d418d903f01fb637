/** Fork to a new session (session-engine.md §1.6 createBranchedSession) and persisted pruning (session-engine.md §8, §1.9). */
import { describe, expect, it } from "vitest";
import { pruneToolOutputs } from "@/lib/compaction/pruning";
import { assistantMsg, toolCall, toolResultMsg, userMsg } from "@/test/session-factories";
import type { LabelEntry, MessageEntry, SessionEntry, ToolResultMessage } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import {
  appendEntries,
  applyPrune,
  branch,
  forkSession,
  getPrunedOriginals,
  getSessionMeta,
  loadEntries,
  loadPath,
  loadTree,
  NotFoundError,
  setLabel,
  undoPrune,
  createSession,
} from "..";

useTestDatabase();

describe("forkSession", () => {
  it("copies the path into a new session, rebuilds labels on the path and sets parentSession", async () => {
    const { id } = await createSession({ title: "Source", cwd: "/src" });
    const a = await appendEntries({
      sessionId: id,
      expectedLeafId: null,
      entries: [
        { type: "message", message: userMsg("q1") },
        { type: "message", message: assistantMsg("a1") },
        { type: "message", message: userMsg("q2") },
      ],
    });
    const [q1, a1, q2] = a.entries as [SessionEntry, SessionEntry, SessionEntry];
    const l1 = await setLabel({ sessionId: id, expectedLeafId: q2.id, targetId: a1.id, label: "good answer" });
    // A side branch from q1 with its own label: it must not follow the fork of the main path.
    await branch({ sessionId: id, expectedLeafId: l1.leafId, targetId: q1.id });
    const side = await appendEntries({ sessionId: id, expectedLeafId: q1.id, entries: [{ type: "message", message: assistantMsg("side") }] });
    await setLabel({ sessionId: id, expectedLeafId: side.leafId, targetId: side.entries[0]!.id, label: "side label" });

    const fork = await forkSession({ sessionId: id, leafId: l1.leafId!, title: "My fork" });
    const meta = await getSessionMeta({ id: fork.sessionId });
    expect(meta).toMatchObject({ parentSession: id, title: "My fork", cwd: "/src", entryCount: 4, leafId: fork.leafId });
    expect(meta.header).toMatchObject({ type: "session", version: 3, id: fork.sessionId, parentSession: id });

    const entries = await loadEntries({ sessionId: fork.sessionId });
    expect(entries.slice(0, 3).map((e) => e.id)).toEqual([q1.id, a1.id, q2.id]);
    const label = entries[3] as LabelEntry;
    expect(label).toMatchObject({ type: "label", targetId: a1.id, label: "good answer", parentId: q2.id });
    expect(label.id).not.toBe(l1.leafId);
    expect(fork.leafId).toBe(label.id);
    expect((await loadTree({ sessionId: fork.sessionId })).tree.getLabel(a1.id)).toBe("good answer");
    const [col] = await getDb().$queryRaw<{ label: string }[]>`SELECT label FROM entries WHERE session_id = ${fork.sessionId} AND id = ${a1.id}`;
    expect(col!.label).toBe("good answer");

    // The source is unchanged.
    expect((await loadEntries({ sessionId: id })).length).toBe(6);
    await expect(forkSession({ sessionId: id, leafId: "nope" })).rejects.toThrow("Entry nope not found");
  });

  it("forks from the stored leaf by default and keeps the source title", async () => {
    const { id } = await createSession({ title: "Keep me" });
    await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("only") }] });
    const fork = await forkSession({ sessionId: id });
    expect(await getSessionMeta({ id: fork.sessionId })).toMatchObject({ title: "Keep me", entryCount: 1 });
  });
});

describe("applyPrune / undoPrune", () => {
  async function sessionWithToolOutput() {
    const { id } = await createSession();
    const big = "line of output\n".repeat(12_000); // ~45k tokens
    const r = await appendEntries({
      sessionId: id,
      expectedLeafId: null,
      entries: [
        { type: "message", message: userMsg("read the logs") },
        { type: "message", message: assistantMsg("", { toolCalls: [toolCall("c1", "bash", { command: "cat a.log" })] }) },
        { type: "message", message: toolResultMsg("c1", big, { toolName: "bash" }) },
        { type: "message", message: assistantMsg("", { toolCalls: [toolCall("c2", "bash", { command: "cat b.log" })] }) },
        { type: "message", message: toolResultMsg("c2", big, { toolName: "bash" }) },
        { type: "message", message: assistantMsg("done") },
      ],
    });
    return { id, entries: r.entries, big };
  }

  async function tokensOf(sessionId: string, entryId: string): Promise<number> {
    const [row] = await getDb().$queryRaw<{ tokens: number }[]>`SELECT tokens FROM entries WHERE session_id = ${sessionId} AND id = ${entryId}`;
    return row!.tokens;
  }

  it("stores the engine's prune, keeps the original content, and undo restores it", async () => {
    const { id, entries, big } = await sessionWithToolOutput();
    const path = await loadPath({ sessionId: id });
    const before = new Map(path.map((e) => [e.id, structuredClone(e)]));
    const result = pruneToolOutputs(path);
    expect(result.prunedCount).toBe(1);
    const pruned = path.filter((e): e is MessageEntry & SessionEntry => e.type === "message" && e.message.role === "toolResult" && e.message.prunedAt !== undefined);
    const target = pruned[0]!;
    expect(target.id).toBe(entries[2]!.id);
    const fullTokens = await tokensOf(id, target.id);

    const { entries: stored } = await applyPrune({
      sessionId: id,
      pruned: pruned.map((e) => ({ entryId: e.id, message: e.message as ToolResultMessage, originalContent: (before.get(e.id) as MessageEntry).message })),
    });
    expect(stored).toHaveLength(1);
    const now = (await loadEntries({ sessionId: id })).find((e) => e.id === target.id) as MessageEntry;
    const msg = now.message as ToolResultMessage;
    expect(msg.prunedAt).toEqual(expect.any(Number));
    expect(msg.content).toEqual([{ type: "text", text: expect.stringMatching(/^\[Output truncated - \d+ tokens\]$/) }]);
    expect(await tokensOf(id, target.id)).toBeLessThan(fullTokens);
    expect((await getPrunedOriginals({ sessionId: id })).get(target.id)).toEqual([{ type: "text", text: big }]);

    // Pruning again keeps the first original.
    await applyPrune({ sessionId: id, pruned: [{ entryId: target.id, message: { ...msg, content: [{ type: "text", text: "[again]" }] } }] });
    expect((await getPrunedOriginals({ sessionId: id, entryIds: [target.id] })).get(target.id)).toEqual([{ type: "text", text: big }]);

    const { entries: restored } = await undoPrune({ sessionId: id, entryIds: [target.id] });
    expect(restored).toHaveLength(1);
    const back = (await loadEntries({ sessionId: id })).find((e) => e.id === target.id);
    expect(back).toEqual(before.get(target.id));
    expect(await tokensOf(id, target.id)).toBe(fullTokens);
    expect((await getPrunedOriginals({ sessionId: id })).size).toBe(0);
    expect(await undoPrune({ sessionId: id, entryIds: [target.id] })).toEqual({ entries: [], rev: null }); // nothing left to undo
  });

  it("writes nothing when one of the entries is not a tool result", async () => {
    const { id, entries } = await sessionWithToolOutput();
    const notice = { ...(entries[2] as MessageEntry).message, content: [{ type: "text", text: "[x]" }], prunedAt: 1 } as ToolResultMessage;
    const error = await applyPrune({
      sessionId: id,
      pruned: [
        { entryId: entries[2]!.id, message: notice },
        { entryId: entries[0]!.id, message: notice },
      ],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe(`Entry ${entries[0]!.id} not found or not a tool result`);
    expect((await getPrunedOriginals({ sessionId: id })).size).toBe(0);
    const stillFull = (await loadEntries({ sessionId: id }))[2] as MessageEntry;
    expect((stillFull.message as ToolResultMessage).prunedAt).toBeUndefined();
  });
});
