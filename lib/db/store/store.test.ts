/** The session store's tree operations on a real database (session-engine.md §1.6 mirrored by lib/db). */
import { describe, expect, it } from "vitest";
import { MAX_PERSIST_CHARS, PERSIST_TRUNCATION_NOTICE } from "@/lib/session/file/sanitize";
import { assistantMsg, bashMsg, text, toolResultMsg, userMsg } from "@/test/session-factories";
import type { LabelEntry, SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import {
  appendCompaction,
  appendEntries,
  branch,
  branchWithSummary,
  CONFLICT_MESSAGE,
  ConflictError,
  commitEntries,
  createSession,
  getSessionMeta,
  IdCollisionError,
  loadEntries,
  loadPath,
  loadTree,
  NotFoundError,
  resetLeaf,
  setLabel,
  softDeleteSession,
} from "..";

useTestDatabase();

const ids = (entries: readonly SessionEntry[]) => entries.map((e) => e.id);

async function column<T>(sessionId: string, entryId: string, name: "label" | "tokens" | "role" | "text" | "seq"): Promise<T> {
  const rows = await getDb().$queryRawUnsafe<Record<string, T>[]>(`SELECT ${name} AS v FROM entries WHERE session_id = $1 AND id = $2`, sessionId, entryId);
  return rows[0]!.v as T;
}

/** A session with user → assistant → user → assistant; returns the ids. */
async function conversation() {
  const { id } = await createSession({ cwd: "/work" });
  const r = await appendEntries({
    sessionId: id,
    expectedLeafId: null,
    entries: [
      { type: "message", message: userMsg("how do I list files?") },
      { type: "message", message: assistantMsg("use ls", { provider: "anthropic", model: "claude-sonnet-4-5" }) },
      { type: "message", message: userMsg("and hidden ones?") },
      { type: "message", message: assistantMsg("ls -a", { provider: "openai", model: "gpt-5.1-codex" }) },
    ],
  });
  return { id, entries: r.entries, leaf: r.leafId! };
}

describe("create and append", () => {
  it("creates an empty v3 session with no leaf", async () => {
    const s = await createSession({ title: "  My   session ", cwd: "/tmp/x" });
    const meta = await getSessionMeta({ id: s.id });
    expect(meta).toMatchObject({ title: "My session", cwd: "/tmp/x", leafId: null, entryCount: 0, deletedAt: null });
    expect(meta.header).toMatchObject({ type: "session", version: 3, id: s.id, cwd: "/tmp/x", title: "My session" });
    expect(await loadEntries({ sessionId: s.id })).toEqual([]);
    expect(await loadPath({ sessionId: s.id })).toEqual([]);
  });

  it("appends entries as a chain under the leaf, moves the leaf and keeps file order", async () => {
    const { id, entries, leaf } = await conversation();
    expect(entries.map((e) => e.parentId)).toEqual([null, ...ids(entries).slice(0, -1)]);
    expect(entries.every((e) => /^[0-9a-f]{8}$/.test(e.id))).toBe(true);
    const meta = await getSessionMeta({ id });
    expect(meta).toMatchObject({ leafId: leaf, entryCount: 4, model: "openai/gpt-5.1-codex", title: "how do I list files?" });
    expect(ids(await loadEntries({ sessionId: id }))).toEqual(ids(entries));
    expect(await column<number>(id, entries[3]!.id, "seq")).toBe(3);
    expect(await column<string>(id, entries[0]!.id, "role")).toBe("user");
    expect(await column<number>(id, entries[2]!.id, "tokens")).toBe(Math.ceil("and hidden ones?".length / 4));
  });

  it("refuses to store in-memory roles (session-engine.md §1.5)", async () => {
    const { id } = await createSession();
    await expect(
      appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: { role: "branchSummary", summary: "s", fromId: "x", timestamp: 1 } }] }),
    ).rejects.toThrow(/buildSessionContext/);
  });

  it("sanitizes before writing: streaming keys dropped, huge strings cut (session-engine.md §1.9)", async () => {
    const { id } = await createSession();
    const huge = "x".repeat(MAX_PERSIST_CHARS + 10);
    const message = { ...toolResultMsg("call1", huge), partialJson: "{…" };
    const r = await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message, jsonlEvents: [1] }] });
    const [stored] = await loadEntries({ sessionId: id });
    expect(stored).toEqual(r.entries[0]);
    expect(stored).not.toHaveProperty("jsonlEvents");
    expect((stored as { message: unknown }).message).not.toHaveProperty("partialJson");
    const content = (stored as { message: { content: { text: string }[] } }).message.content[0]!.text;
    expect(content.length).toBe(MAX_PERSIST_CHARS);
    expect(content.endsWith(PERSIST_TRUNCATION_NOTICE)).toBe(true);
  });

  it("stores text PostgreSQL cannot hold (NUL, lone surrogates) with replacement characters", async () => {
    const { id } = await createSession();
    await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("a\u0000b \ud800 c\\u0000d") }] });
    const [stored] = await loadEntries({ sessionId: id });
    expect((stored as { message: { content: string } }).message.content).toBe("a\ufffdb \ufffd c\\u0000d");
  });
});

describe("loadPath (one recursive query)", () => {
  it("returns root → leaf for the stored leaf, or for any entry", async () => {
    const { id, entries, leaf } = await conversation();
    // A side branch from the first answer.
    await branch({ sessionId: id, expectedLeafId: leaf, targetId: entries[1]!.id });
    const alt = await appendEntries({ sessionId: id, expectedLeafId: entries[1]!.id, entries: [{ type: "message", message: userMsg("other") }] });
    const altId = alt.entries[0]!.id;
    expect(ids(await loadPath({ sessionId: id }))).toEqual([entries[0]!.id, entries[1]!.id, altId]);
    expect(ids(await loadPath({ sessionId: id, leafId: leaf }))).toEqual(ids(entries));
    expect(await loadPath({ sessionId: id, leafId: "nope" })).toEqual([]);
    expect(await loadPath({ sessionId: id, leafId: null })).toEqual([]);
  });

  it("throws NotFoundError for an unknown session", async () => {
    await expect(loadPath({ sessionId: "missing" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(loadEntries({ sessionId: "missing" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getSessionMeta({ id: "missing" })).rejects.toThrow("Session missing not found");
  });
});

describe("leaf moves", () => {
  it("branch moves the leaf to an existing entry and refuses an unknown one", async () => {
    const { id, entries, leaf } = await conversation();
    const r = await branch({ sessionId: id, expectedLeafId: leaf, targetId: entries[0]!.id });
    expect(r.leafId).toBe(entries[0]!.id);
    expect((await getSessionMeta({ id })).leafId).toBe(entries[0]!.id);
    await expect(branch({ sessionId: id, expectedLeafId: entries[0]!.id, targetId: "nonexistent" })).rejects.toThrow("Entry nonexistent not found");
    expect((await getSessionMeta({ id })).entryCount).toBe(4);
  });

  it("resetLeaf makes the next append a new root", async () => {
    const { id, leaf } = await conversation();
    await resetLeaf({ sessionId: id, expectedLeafId: leaf });
    expect((await getSessionMeta({ id })).leafId).toBeNull();
    const r = await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("fresh start") }] });
    expect(r.entries[0]!.parentId).toBeNull();
    expect(ids(await loadPath({ sessionId: id }))).toEqual([r.entries[0]!.id]);
  });

  it("branchWithSummary attaches the summary under the target and makes it the leaf", async () => {
    const { id, entries, leaf } = await conversation();
    const r = await branchWithSummary({ sessionId: id, expectedLeafId: leaf, fromId: entries[1]!.id, summary: "Tried hidden files" });
    const summary = r.entries[0]!;
    expect(summary).toMatchObject({ type: "branch_summary", parentId: entries[1]!.id, fromId: entries[1]!.id, summary: "Tried hidden files" });
    expect(r.leafId).toBe(summary.id);
    expect(ids(await loadPath({ sessionId: id }))).toEqual([entries[0]!.id, entries[1]!.id, summary.id]);
    const root = await branchWithSummary({ sessionId: id, expectedLeafId: summary.id, fromId: null, summary: "From the top" });
    expect(root.entries[0]).toMatchObject({ parentId: null, fromId: "root" });
    await expect(branchWithSummary({ sessionId: id, expectedLeafId: root.leafId, fromId: "ghost", summary: "x" })).rejects.toThrow("Entry ghost not found");
  });

  it("appendCompaction appends under the leaf and needs an existing firstKeptEntryId", async () => {
    const { id, entries, leaf } = await conversation();
    const r = await appendCompaction({ sessionId: id, expectedLeafId: leaf, summary: "S".repeat(40), firstKeptEntryId: entries[2]!.id, tokensBefore: 1234 });
    expect(r.entries[0]).toMatchObject({ type: "compaction", parentId: leaf, firstKeptEntryId: entries[2]!.id, tokensBefore: 1234 });
    expect(await column<number>(id, r.entries[0]!.id, "tokens")).toBe(10);
    await expect(appendCompaction({ sessionId: id, expectedLeafId: r.leafId, summary: "x", firstKeptEntryId: "gone", tokensBefore: 1 })).rejects.toThrow("Entry gone not found");
  });

  it("setLabel appends a label entry (the new leaf) and maintains the label column, last one wins", async () => {
    const { id, entries, leaf } = await conversation();
    const target = entries[1]!.id;
    const a = await setLabel({ sessionId: id, expectedLeafId: leaf, targetId: target, label: "checkpoint" });
    expect(a.entries[0]).toMatchObject({ type: "label", targetId: target, label: "checkpoint", parentId: leaf });
    expect(a.leafId).toBe(a.entries[0]!.id);
    expect(await column<string>(id, target, "label")).toBe("checkpoint");
    const b = await setLabel({ sessionId: id, expectedLeafId: a.leafId, targetId: target, label: "tests-green" });
    expect(await column<string>(id, target, "label")).toBe("tests-green");
    await setLabel({ sessionId: id, expectedLeafId: b.leafId, targetId: target, label: undefined });
    expect(await column<string | null>(id, target, "label")).toBeNull();
    const { tree } = await loadTree({ sessionId: id });
    expect(tree.getLabel(target)).toBeUndefined();
    await expect(setLabel({ sessionId: id, expectedLeafId: tree.getLeafId(), targetId: "nope", label: "x" })).rejects.toThrow("Entry nope not found");
  });
});

describe("commitEntries", () => {
  it("fails with the conflict message when the leaf moved, and writes nothing", async () => {
    const { id, entries, leaf } = await conversation();
    const stale = entries[1]!.id;
    const err = await commitEntries({
      sessionId: id,
      expectedLeafId: stale,
      entries: [{ type: "message", id: "abcd0001", parentId: stale, timestamp: new Date().toISOString(), message: userMsg("late") } as SessionEntry],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).message).toBe(CONFLICT_MESSAGE);
    expect(err).toMatchObject({ expectedLeafId: stale, actualLeafId: leaf });
    expect(await getSessionMeta({ id })).toMatchObject({ leafId: leaf, entryCount: 4 });
  });

  it("refuses ids the session already uses, and parents it does not have", async () => {
    const { id, entries, leaf } = await conversation();
    const dup = { ...entries[0]!, parentId: leaf };
    await expect(commitEntries({ sessionId: id, expectedLeafId: leaf, entries: [dup] })).rejects.toBeInstanceOf(IdCollisionError);
    const orphan = { ...entries[0]!, id: "feed0001", parentId: "missing1" };
    await expect(commitEntries({ sessionId: id, expectedLeafId: leaf, entries: [orphan] })).rejects.toThrow("Entry missing1 not found");
    expect((await getSessionMeta({ id })).entryCount).toBe(4);
  });

  it("persists what a SessionTree appended (the app layer's path)", async () => {
    const { id } = await conversation();
    const { meta, tree } = await loadTree({ sessionId: id });
    const before = tree.getEntryCount();
    const expected = tree.getLeafId();
    tree.appendMessage(userMsg("one more"));
    tree.appendModelChange("anthropic/claude-opus-4-5");
    const labelId = tree.appendLabelChange(tree.getEntries()[0]!.id, "start");
    const r = await commitEntries({ sessionId: id, expectedLeafId: expected, entries: tree.getEntriesAppendedSince(before), newLeafId: tree.getLeafId() });
    expect(r.entryCount).toBe(meta.entryCount + 3);
    const again = await loadTree({ sessionId: id });
    expect(again.tree.getLeafId()).toBe(labelId);
    expect(again.tree.getLabel(tree.getEntries()[0]!.id)).toBe("start");
    expect(again.meta.model).toBe("anthropic/claude-opus-4-5");
  });

  it("derives search text from messages, tool results and summaries", async () => {
    const { id } = await createSession();
    const r = await appendEntries({
      sessionId: id,
      expectedLeafId: null,
      entries: [
        { type: "message", message: { ...assistantMsg("", { thinking: "hidden" }), content: [text("first"), { type: "thinking", thinking: "hidden" }, text("second")] } },
        { type: "message", message: toolResultMsg("c1", "total 12", { toolName: "bash" }) },
        { type: "message", message: bashMsg("ls", "a.txt") },
        { type: "custom_message", customType: "note", content: "remember this", display: true },
      ],
    });
    const texts = await Promise.all(r.entries.map((e) => column<string>(id, e.id, "text")));
    expect(texts).toEqual(["first\nsecond", "total 12", "ls\na.txt", "remember this"]);
  });

  it("refuses writes to a session in the trash", async () => {
    const { id, leaf } = await conversation();
    await softDeleteSession({ id });
    await expect(appendEntries({ sessionId: id, expectedLeafId: leaf, entries: [{ type: "message", message: userMsg("x") }] })).rejects.toThrow(/deleted/);
  });

  it("keeps the label of a label entry target through loadTree", async () => {
    const { id, entries, leaf } = await conversation();
    await setLabel({ sessionId: id, expectedLeafId: leaf, targetId: entries[0]!.id, label: "root" });
    const all = await loadEntries({ sessionId: id });
    expect((all.at(-1) as LabelEntry).targetId).toBe(entries[0]!.id);
  });
});
