/**
 * Several app processes on one database: the run registry (running.ts) across REAL processes.
 * Two workers (test/run-worker.ts, spawned with tsx like `npm start`) and this test process are
 * three app processes on the file's database; each takes its locks on its own connection.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as stopPost } from "@/app/api/chat/stop/route";
import { appendEntries, createSession, getSessionMeta, loadEntries, loadPath } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { userMsg } from "@/test/session-factories";
import { useTestDatabase } from "@/test/db";
import { type RunWorker, startRunWorker } from "@/test/run-worker-client";
import { claimRun } from "./running";

const db = useTestDatabase();
let a: RunWorker;
let b: RunWorker;

beforeAll(async () => {
  [a, b] = await Promise.all([startRunWorker(db.url), startRunWorker(db.url)]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const session = () => randomUUID();

async function stopHere(sessionId: string): Promise<unknown> {
  const res = await stopPost(
    new Request("http://arbor.test/api/chat/stop", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: sessionId }) }),
  );
  expect(res.status).toBe(200);
  return res.json();
}

/** Retries `claim` until it succeeds; resolves with the time it took. */
async function claimSoon(worker: RunWorker, args: Record<string, unknown>, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await worker.call("claim", args);
      return Date.now() - started;
    } catch (error) {
      if ((error as Error).name !== "BusyError" || Date.now() - started > withinMs) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

describe("one run per session across processes", () => {
  it("a session claimed in process A is busy in process B and here, naming what A runs", async () => {
    const s = session();
    await a.call("claim", { session: s, kind: "turn" });
    await expect(b.call("claim", { session: s, kind: "navigation" })).rejects.toMatchObject({
      name: "BusyError",
      message: "A turn is already running in this session",
    });
    await expect(claimRun(s, "edit")).rejects.toThrow("A turn is already running in this session");
    await a.call("finish", { session: s });

    await claimSoon(b, { session: s, kind: "compaction" }, 2_000);
    await expect(a.call("claim", { session: s, kind: "turn" })).rejects.toThrow("A compaction is already running in this session");
    await b.call("finish", { session: s });
  });

  it("Stop from B aborts the run in A and answers stopped: true; an idle session answers false", async () => {
    const s = session();
    await a.call("claim", { session: s, kind: "turn", finishOnAbort: true });
    expect(await b.call("abort", { session: s })).toBe(true);
    await a.aborted(s);
    // A's run ends by itself once aborted; then the session is free for B.
    await claimSoon(b, { session: s, kind: "turn" }, 5_000);
    await b.call("finish", { session: s });

    const started = Date.now();
    expect(await b.call("abort", { session: session() })).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_500); // nobody holds it: no waiting for an answer
  });

  it("a second Stop of a run that is already stopping answers false at once", async () => {
    const s = session();
    await a.call("claim", { session: s, kind: "turn" });
    expect(await b.call("abort", { session: s })).toBe(true);
    const started = Date.now();
    expect(await b.call("abort", { session: s })).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_500); // A answered; B did not wait out the 2 s
    await a.call("finish", { session: s });
  });

  it("POST /api/chat/stop in this process stops a turn running in another", async () => {
    const s = session();
    await a.call("claim", { session: s, kind: "turn", finishOnAbort: true });
    expect(await stopHere(s)).toEqual({ ok: true, stopped: true });
    await a.aborted(s);
    expect(await stopHere(session())).toEqual({ ok: true, stopped: false });
  });

  it("edits in another process cannot be stopped", async () => {
    const s = session();
    await a.call("claim", { session: s, kind: "edit" });
    expect(await b.call("abort", { session: s })).toBe(false);
    await a.call("finish", { session: s });
  });

  it("a compaction in B preempts a turn in A, but not a compaction", async () => {
    const s = session();
    await a.call("claim", { session: s, kind: "turn", finishOnAbort: true });
    await b.call("claim", { session: s, kind: "compaction", preempt: ["turn"] });
    await a.aborted(s);
    await expect(a.call("claim", { session: s, kind: "compaction", preempt: ["turn"] })).rejects.toThrow(
      "A compaction is already running in this session",
    );
    await b.call("finish", { session: s });
  });

  it("a process that dies frees its sessions at once", async () => {
    const c = await startRunWorker(db.url);
    const s = session();
    await c.call("claim", { session: s, kind: "turn" });
    await expect(b.call("claim", { session: s, kind: "turn" })).rejects.toThrow("A turn is already running in this session");
    await c.kill();
    expect(await claimSoon(b, { session: s, kind: "turn" }, 2_000)).toBeLessThan(1_000);
    await b.call("finish", { session: s });
  });
});

describe("a lost registry connection", () => {
  it("reconnects by itself, takes its run's lock again and still hears Stop", async () => {
    const s = session();
    await a.call("claim", { session: s, kind: "turn", finishOnAbort: true });
    const before = await a.call<number>("registryPid", {});
    // What a database restart does to A's connection (its locks go with it).
    await getDb().$queryRaw`SELECT pg_terminate_backend(${before}::int)`;
    await expect
      .poll(() => a.call<number | null>("registryPid", {}), { timeout: 10_000 })
      .toSatisfy((pid) => typeof pid === "number" && pid !== before);
    await expect(b.call("claim", { session: s, kind: "turn" })).rejects.toThrow("A turn is already running in this session");
    expect(await b.call("abort", { session: s })).toBe(true);
    await a.aborted(s);
  });
});

describe("the optimistic leaf check across processes", () => {
  it("of two processes committing on the same leaf, exactly one wins each time", async () => {
    const { id } = await createSession();
    let leaf = (await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("start") }] })).leafId;
    const ROUNDS = 10;
    for (let round = 0; round < ROUNDS; round++) {
      const commit = (w: RunWorker, name: string) =>
        w.call<string>("commit", { session: id, expectedLeafId: leaf, entryId: `r${round}${name}`, text: `round ${round} from ${name}` });
      const results = await Promise.allSettled([commit(a, "a"), commit(b, "b")]);
      const won = results.filter((r): r is PromiseFulfilledResult<string> => r.status === "fulfilled");
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost.map((r) => (r.reason as Error).name)).toEqual(["ConflictError"]);
      leaf = won[0]!.value;
    }
    const entries = await loadEntries({ sessionId: id });
    expect(entries).toHaveLength(ROUNDS + 1);
    expect((await getSessionMeta({ id })).leafId).toBe(leaf);
    expect((await loadPath({ sessionId: id })).map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });
});
