/**
 * The read model against real PostgreSQL, with a second process writing to the same sessions
 * (test/store-writer.ts): every context it gives must equal a fresh buildSessionContext over what
 * the database holds (session-engine.md §2), whatever was cached.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantMsg, userMsg } from "@/test/session-factories";
import { SessionTree } from "@/lib/session/tree/tree";
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { appendEntries, commitEntries, ConflictError, createSession, getSessionMeta, loadEntries } from "..";
import { configureReadModel, peekCachedSession, readModelStats, readSession } from ".";

const db = useTestDatabase();

class Writer {
  private readonly lines: AsyncIterator<string>;
  private readonly rl: Interface;
  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.rl = createInterface({ input: child.stdout });
    this.lines = this.rl[Symbol.asyncIterator]();
  }
  static async start(url: string): Promise<Writer> {
    const child = spawn("npx", ["tsx", "--conditions=react-server", "test/store-writer.ts", url], { stdio: "pipe" });
    child.stderr.on("data", (d: Buffer) => process.stderr.write(d));
    const w = new Writer(child);
    await w.next();
    return w;
  }
  private async next(): Promise<unknown> {
    const { value, done } = await this.lines.next();
    if (done) throw new Error("writer exited");
    return JSON.parse(value as string);
  }
  async send<T>(cmd: Record<string, unknown>): Promise<T> {
    this.child.stdin.write(`${JSON.stringify(cmd)}\n`);
    const answer = (await this.next()) as { ok: boolean; value?: T; error?: string };
    if (!answer.ok) throw new Error(answer.error);
    return answer.value as T;
  }
  stop(): void {
    this.rl.close();
    this.child.stdin.end();
  }
}

let writer: Writer;
beforeAll(async () => {
  writer = await Writer.start(db.url);
}, 60_000);
afterAll(() => writer?.stop());

/** The context of the stored leaf, built fresh from the database (no cache). */
async function freshContext(sessionId: string) {
  const meta = await getSessionMeta({ id: sessionId });
  const tree = new SessionTree(meta.header, await loadEntries({ sessionId }));
  if (meta.leafId === null) tree.resetLeaf();
  else tree.branch(meta.leafId);
  return tree.buildContext();
}

async function expectCurrent(sessionId: string): Promise<void> {
  const view = await readSession({ sessionId });
  expect(view.tree.getLeafId()).toBe(view.meta.leafId);
  expect(view.tree.buildContext()).toEqual(await freshContext(sessionId));
}

async function appendHere(sessionId: string, text: string) {
  const { leafId } = await getSessionMeta({ id: sessionId });
  return appendEntries({ sessionId, expectedLeafId: leafId, entries: [{ type: "message", message: userMsg(text) }] });
}

async function sessionWithToolResult() {
  const { id } = await createSession();
  const call = assistantMsg("calling");
  const result: ToolResultMessage = {
    role: "toolResult",
    toolCallId: "c1",
    toolName: "bash",
    content: [{ type: "text", text: "original output" }],
    isError: false,
    timestamp: Date.now(),
  };
  const r = await appendEntries({
    sessionId: id,
    expectedLeafId: null,
    entries: [
      { type: "message", message: userMsg("run it") },
      { type: "message", message: call },
      { type: "message", message: result },
    ],
  });
  return { id, toolEntryId: r.entries[2]!.id };
}

describe("read model: versions and catching up", () => {
  it("interleaves writes of this process and another; every context equals a fresh one", async () => {
    const { id } = await createSession();
    for (let round = 0; round < 4; round++) {
      await appendHere(id, `here ${round}`);
      await expectCurrent(id);
      await writer.send({ op: "append", sessionId: id, texts: [`there ${round}a`, `there ${round}b`] });
      await expectCurrent(id);
      // The other process reads through its own cache, which must agree too.
      const theirs = await writer.send<{ rev: number; count: number }>({ op: "read", sessionId: id });
      const mine = await readSession({ sessionId: id });
      expect(theirs).toEqual({ rev: mine.rev, count: mine.tree.getEntryCount() });
    }
    expect((await readSession({ sessionId: id })).tree.getEntryCount()).toBe(12);
  }, 60_000);

  it("catches up on another process's appends by reading only the new entries", async () => {
    const { id } = await createSession();
    await appendHere(id, "first");
    await readSession({ sessionId: id });
    const before = readModelStats();
    const cached = peekCachedSession(id)!;
    await writer.send({ op: "append", sessionId: id, texts: ["a", "b", "c"] });
    await expectCurrent(id);
    const after = readModelStats();
    expect(after.catchUps).toBe(before.catchUps + 1);
    expect(after.reloads).toBe(before.reloads);
    expect(peekCachedSession(id)).toEqual({ rev: cached.rev + 3, count: 4 });
  }, 30_000);

  it("a warm read of an unchanged session is a cache hit", async () => {
    const { id } = await createSession();
    await appendHere(id, "x");
    await readSession({ sessionId: id });
    const before = readModelStats();
    await expectCurrent(id);
    expect(readModelStats().hits).toBe(before.hits + 1);
  });

  it("reloads after another process's prune, with the pruned content, and keeps older views intact", async () => {
    const { id, toolEntryId } = await sessionWithToolResult();
    const old = await readSession({ sessionId: id });
    const oldEntry = old.tree.getEntry(toolEntryId);
    await writer.send({ op: "prune", sessionId: id, entryId: toolEntryId });
    const before = readModelStats();
    const now = await readSession({ sessionId: id });
    expect(readModelStats().reloads).toBe(before.reloads + 1);
    const entry = now.tree.getEntry(toolEntryId) as SessionEntry & { message: ToolResultMessage };
    expect(entry.message.content).toEqual([{ type: "text", text: "[pruned by the writer]" }]);
    expect(old.tree.getEntry(toolEntryId)).toBe(oldEntry);
    expect((oldEntry as { message: ToolResultMessage }).message.content).toEqual([{ type: "text", text: "original output" }]);
    await expectCurrent(id);
  }, 30_000);

  it("follows a leaf move by another writer without reading entries", async () => {
    const { id } = await createSession();
    const first = await appendHere(id, "one");
    await appendHere(id, "two");
    await readSession({ sessionId: id });
    const { leafId } = await getSessionMeta({ id });
    // Reset the stored leaf behind the cache's back (a commit of no entries).
    await commitEntries({ sessionId: id, expectedLeafId: leafId, entries: [], newLeafId: first.leafId });
    await expectCurrent(id);
  });
});

describe("read model: failures, eviction, restart", () => {
  it("a failed commit (conflict) leaves the cache at the last commit", async () => {
    const { id } = await createSession();
    await appendHere(id, "one");
    const view = await readSession({ sessionId: id });
    const working = view.tree.fork();
    working.appendMessage(userMsg("never stored"));
    const pending = working.getEntriesAppendedSince(view.tree.getEntryCount());
    const cached = peekCachedSession(id);
    await expect(commitEntries({ sessionId: id, expectedLeafId: "not-the-leaf", entries: pending })).rejects.toBeInstanceOf(ConflictError);
    expect(peekCachedSession(id)).toEqual(cached);
    const after = await readSession({ sessionId: id });
    expect(after.tree.getEntryCount()).toBe(1);
    expect(after.tree.getEntry(pending[0]!.id)).toBeUndefined();
    await expectCurrent(id);
  });

  it("evicts least recently used sessions under a small cache, and evicted sessions read correctly", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { id } = await createSession();
      await appendHere(id, `${"words ".repeat(200)} ${i}`);
      ids.push(id);
    }
    configureReadModel({ clear: true, maxBytes: 4000 });
    try {
      for (const id of ids) await readSession({ sessionId: id });
      const stats = readModelStats();
      expect(stats.bytes).toBeLessThanOrEqual(4000);
      expect(peekCachedSession(ids[0]!)).toBeUndefined();
      expect(peekCachedSession(ids[3]!)).toBeDefined();
      for (const id of ids) await expectCurrent(id);
    } finally {
      configureReadModel({ maxBytes: 256 * 1024 * 1024 });
    }
  });

  it("a restart (fresh cache) loses nothing", async () => {
    const { id } = await createSession();
    await appendHere(id, "before");
    await writer.send({ op: "append", sessionId: id, texts: ["theirs"] });
    const before = await readSession({ sessionId: id });
    configureReadModel({ clear: true });
    const after = await readSession({ sessionId: id });
    expect(after.rev).toBe(before.rev);
    expect(after.tree.getEntries()).toEqual(before.tree.getEntries());
    await expectCurrent(id);
  });

  it("a cold read of a large session (parts read at once) gives every entry in file order", async () => {
    const { generateSession } = await import("@/test/generators/session");
    const { header, entries } = generateSession({ seed: 5, entries: 7000, branches: 3, labels: 3 });
    const { id } = await createSession({ header: { ...header, id: "cold-parts" } });
    let leaf: string | null = null;
    for (let i = 0; i < entries.length; i += 1000) {
      leaf = (await commitEntries({ sessionId: id, expectedLeafId: leaf, entries: entries.slice(i, i + 1000) })).leafId;
    }
    configureReadModel({ clear: true });
    const before = readModelStats();
    const view = await readSession({ sessionId: id });
    expect(readModelStats().coldLoads).toBe(before.coldLoads + 1);
    expect(view.tree.getEntries()).toEqual(await loadEntries({ sessionId: id }));
    await expectCurrent(id);
  }, 60_000);

  it("a cold read whose parts see a rewrite after the version it read reloads in one snapshot", async () => {
    const { readAllAt, readVersionedMeta } = await import("./queries");
    const { id, toolEntryId } = await sessionWithToolResult();
    const v = await readVersionedMeta(id);
    expect((await readAllAt(id, v))?.entries.length).toBe(v.meta.entryCount);
    await writer.send({ op: "prune", sessionId: id, entryId: toolEntryId });
    expect(await readAllAt(id, v)).toBeNull();
    configureReadModel({ clear: true });
    const view = await readSession({ sessionId: id });
    const entry = view.tree.getEntry(toolEntryId) as SessionEntry & { message: ToolResultMessage };
    expect(entry.message.content).toEqual([{ type: "text", text: "[pruned by the writer]" }]);
    await expectCurrent(id);
  }, 30_000);

  it("an unknown session throws NotFoundError; a soft-deleted one still reads", async () => {
    await expect(readSession({ sessionId: "nope" })).rejects.toMatchObject({ name: "NotFoundError" });
    const { softDeleteSession } = await import("..");
    const { id } = await createSession();
    await softDeleteSession({ id });
    expect((await readSession({ sessionId: id })).meta.deletedAt).not.toBeNull();
  });
});
