/**
 * The database going away while Arbor runs, and coming back. A separate embedded PostgreSQL in a
 * temp folder (not the shared test server) is started, the app's client is pointed at it, and
 * then it is stopped under the app's feet:
 * - while it is down, every kind of request fails fast with the one plain message "The database
 *   is not reachable — retrying may help": route handlers answer 503 (not 500), a streaming
 *   import ends with that error event, server actions return `{ ok: false, error: "failed" }`,
 *   and a turn whose save fails mid-way reports it as its `data-error`;
 * - once it is started again (same folder, same port), the same requests work again without
 *   restarting the app or re-pointing the client: the connection pools reconnect by themselves.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renameSession } from "@/app/actions";
import { GET as listGet } from "@/app/api/sessions/route";
import { GET as sessionGet } from "@/app/api/sessions/[id]/route";
import { POST as importPost } from "@/app/api/import/route";
import { readUIStream } from "@/lib/chat-protocol/read-ui-stream";
import { waitForRun } from "@/lib/runs";
import { configureChatRuntime } from "@/lib/chat/runtime-config";
import {
  compactPreview,
  type Harness,
  newSession,
  postChat,
  readAll,
  seedHistory,
  startHarness,
  storedEntries,
  storedPath,
  transcript,
} from "@/test/chat-harness";
import { disconnectDb, useDatabase } from "./client";
import { type EmbeddedServer, prepareAppDatabase, startEmbeddedPostgres } from "@/lib/postgres";
import { DATABASE_UNAVAILABLE_MESSAGE, DatabaseUnavailableError, isDatabaseUnavailable } from "./errors";
import { findSessionMeta } from "./store/read";
import { withBulkTransaction } from "./store/sql";

const DOWN = { error: DATABASE_UNAVAILABLE_MESSAGE, code: "database_unavailable" };

let dir = "";
let folder = "";
let server: EmbeddedServer;
let port = 0;
let h: Harness;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "arbor-restart-"));
  // Run as root, the embedded server drops to a "postgres" user, which must be able to enter.
  await chmod(dir, 0o755);
  folder = path.join(dir, "pg");
  server = await startEmbeddedPostgres(folder);
  port = server.endpoint.port;
  await useDatabase((await prepareAppDatabase(server, "arbor")).url);
  h = await startHarness();
  configureChatRuntime({ modelIdleTimeoutMs: 5000 });
}, 120_000);

afterAll(async () => {
  await h?.close();
  await disconnectDb();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

const stopDatabase = () => server.stop();
async function startDatabase() {
  server = await startEmbeddedPostgres(folder, { port });
  expect(server.endpoint.port).toBe(port);
}

const listSessions = () => listGet(new Request("http://arbor.test/api/sessions"));
const getSession = (id: string) => sessionGet(new Request(`http://arbor.test/api/sessions/${id}`), { params: Promise.resolve({ id }) });
const header = (id: string) => JSON.stringify({ type: "session", version: 3, id, timestamp: "2025-06-01T10:00:00Z", cwd: "/w" });
const user = (id: string, text: string) =>
  JSON.stringify({ type: "message", id, parentId: null, timestamp: "2025-06-01T10:00:01Z", message: { role: "user", content: text, timestamp: 1 } });
async function importFile(sessionId: string) {
  const res = await importPost(
    new Request(`http://arbor.test/api/import?fileName=${sessionId}.jsonl`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: `${header(sessionId)}\n${user("u1", "imported")}\n`,
    }),
  );
  const events = (await res.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; message?: string; sessionId?: string });
  return events.at(-1);
}

/** Resolves within `ms` or fails the test: a lost database must not hang a request. */
async function quickly<T>(p: Promise<T>, ms = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe("the database stops and starts again while the app runs", () => {
  it("requests fail with a clear message while it is down, and work again once it is back", async () => {
    const s = await newSession();
    await seedHistory(s.id, 2, 40);
    expect((await getSession(s.id)).status).toBe(200);

    await stopDatabase();

    // The store itself: its error is recognised as a lost database.
    const storeError = await findSessionMeta({ id: s.id }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(storeError)).toBe(true);
    // The bulk-write connection (import, fork) says the same.
    await expect(quickly(withBulkTransaction(async () => 1))).rejects.toBeInstanceOf(DatabaseUnavailableError);

    // Route handlers: 503 with the message, and a hint to retry.
    for (const res of [await quickly(listSessions()), await quickly(getSession(s.id)), await quickly(compactPreview(s.id))]) {
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toEqual(DOWN);
    }
    const chat = await quickly(postChat(s.id, "are you there?"));
    expect(chat.status).toBe(503);
    expect(await chat.json()).toEqual(DOWN);

    // A streaming import ends with the message (and saves nothing, see below).
    expect(await quickly(importFile("while-down"))).toEqual({
      type: "error",
      code: "unavailable",
      message: `while-down.jsonl: ${DATABASE_UNAVAILABLE_MESSAGE}; nothing was saved`,
    });

    // Server actions: a typed failure, not a thrown error.
    expect(await quickly(renameSession({ id: s.id, title: "Renamed" }))).toEqual({ ok: false, error: "failed", message: DATABASE_UNAVAILABLE_MESSAGE });

    await startDatabase();

    // Same client, same pools: everything works again.
    const list = await quickly(listSessions());
    expect(list.status).toBe(200);
    expect(((await list.json()) as { sessions: { id: string }[] }).sessions.map((x) => x.id)).toContain(s.id);
    expect((await getSession(s.id)).status).toBe(200);
    expect(await renameSession({ id: s.id, title: "Renamed" })).toEqual({ ok: true, data: { id: s.id, title: "Renamed" } });
    expect(await importFile("while-down")).toMatchObject({ type: "done", sessionId: "while-down" });
    const turn = await readAll(await postChat(s.id, "back again?"));
    expect(turn.filter((c) => c.type === "data-error")).toEqual([]);
    expect((await transcript(s.id)).slice(-2)).toEqual(["user: back again?", "assistant: Echo: back again?"]);
  }, 120_000);

  it("a turn whose save fails mid-way reports it, and the session is consistent after the restart", async () => {
    const s = await newSession({ retry: { enabled: false } });
    await seedHistory(s.id, 1, 40);
    const before = await transcript(s.id);
    h.fake.script({ text: "a slow answer that will not be saved", chunkSize: 3, delayMs: 60 });

    const res = await postChat(s.id, "slow question");
    expect(res.status).toBe(200);
    const errors: string[] = [];
    let stopped = false;
    for await (const chunk of readUIStream(res)) {
      // The user message is saved; the database goes away while the answer streams.
      if (!stopped && chunk.type === "text-delta") {
        stopped = true;
        await stopDatabase();
      }
      if (chunk.type === "data-error") errors.push((chunk.data as { message: string }).message);
    }
    await waitForRun(s.id);
    expect(errors).toEqual([DATABASE_UNAVAILABLE_MESSAGE]);

    await startDatabase();
    // What was saved before the loss is there; the unsaved answer is not; the leaf is consistent.
    expect(await transcript(s.id)).toEqual([...before, "user: slow question"]);
    const all = await storedEntries(s.id);
    expect((await storedPath(s.id)).map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect((await findSessionMeta({ id: s.id }))?.leafId).toBe(all.at(-1)?.id);
    const next = await readAll(await postChat(s.id, "and now?"));
    expect(next.filter((c) => c.type === "data-error")).toEqual([]);
    expect((await transcript(s.id)).slice(-2)).toEqual(["user: and now?", "assistant: Echo: and now?"]);
  }, 120_000);

  it("a refused connection to something else (the model server) is not taken for the database", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:11434"), { code: "ECONNREFUSED", syscall: "connect", errno: -111 });
    expect(isDatabaseUnavailable(new TypeError("fetch failed", { cause: refused }))).toBe(false);
    expect(isDatabaseUnavailable(refused)).toBe(false);
    expect(isDatabaseUnavailable(refused, { fromDriver: true })).toBe(true);
  });
});
