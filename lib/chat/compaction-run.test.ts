/**
 * Manual compaction over HTTP (session-engine.md §13.4): preview, run, the §13.4 error messages, cancel
 * (writes nothing), the remote endpoint (§7) and the compaction hooks (§12) loaded from an
 * `arbor.hooks.ts`-style file through the project hooks loader.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CompactionEntry, SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { looksLikeSummarization } from "@/test/fake-llm-server";
import type { CompactionPreviewBody } from "./compaction-run";
import { addHookSource, setProjectHooksFile } from "./hooks-loader";
import { readUIStream } from "@/lib/chat-protocol/read-ui-stream";
import { waitForRun } from "@/lib/runs";
import {
  compactPreview,
  compactRun,
  dataOf,
  MODEL_REF,
  newSession,
  postChat,
  readAll,
  seedHistory,
  useHarness,
  stop,
  storedEntries,
  storedPath,
} from "@/test/chat-harness";

useTestDatabase();

const h = useHarness();

const KEEP = { compaction: { keepRecentTokens: 150 } };

async function seeded(settings: unknown = KEEP) {
  const s = await newSession(settings);
  await seedHistory(s.id, 4);
  return s;
}

const compactions = async (id: string) => (await storedEntries(id)).filter((e): e is CompactionEntry & SessionEntry => e.type === "compaction");
const errors = (chunks: Awaited<ReturnType<typeof readAll>>) => dataOf<{ message: string }>(chunks, "error").map((e) => e.message);

describe("GET /api/sessions/[id]/compact (preview)", () => {
  it("describes the cut point, the counts and the model without calling it", async () => {
    const s = await seeded();
    const res = await compactPreview(s.id, "the database work");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Extract<CompactionPreviewBody, { canCompact: true }>;
    expect(body.canCompact).toBe(true);
    expect((await storedPath(s.id)).map((e) => e.id)).toContain(body.firstKeptEntryId);
    expect(body.firstKeptText).toMatch(/^(user|assistant): /);
    expect(body.counts.summarized).toBeGreaterThan(0);
    expect(body.counts.kept).toBeGreaterThan(0);
    expect(body.tokensBefore).toBeGreaterThan(0);
    expect(body.focus).toBe("the database work");
    expect(body.model).toMatchObject({ ref: MODEL_REF, hasApiKey: true, offline: false });
    expect(h.fake.requests).toHaveLength(0);
  });

  it("says why nothing can be compacted, and 404s for an unknown session", async () => {
    const s = await newSession();
    expect(await (await compactPreview(s.id)).json()).toMatchObject({
      canCompact: false,
      reason: "Nothing to compact (session too small)",
    });
    expect((await compactPreview("missing")).status).toBe(404);
  });
});

describe("POST /api/sessions/[id]/compact", () => {
  it("streams the summary, saves one compaction entry and announces it", async () => {
    const s = await seeded();
    const chunks = await readAll(await compactRun(s.id, { focus: "the plan" }));
    const parts = dataOf<{ phase: string; reason: string; entryId?: string }>(chunks, "compaction");
    expect(parts[0]).toEqual({ phase: "start", reason: "manual" });
    expect(parts.filter((p) => p.phase === "delta").length).toBeGreaterThan(0);
    const stored = await compactions(s.id);
    expect(stored).toHaveLength(1);
    expect(parts.at(-1)).toEqual({ phase: "end", reason: "manual", entryId: stored[0]!.id });
    expect(dataOf<{ entry: SessionEntry; leafId: string }>(chunks, "entry")).toEqual([{ entry: stored[0], leafId: stored[0]!.id }]);
    expect(errors(chunks)).toEqual([]);
    expect(h.fake.requests.find(looksLikeSummarization)?.lastUserText).toContain("the plan");

    // A second one right after: "Already compacted", and nothing more is written.
    expect(errors(await readAll(await compactRun(s.id)))).toEqual(["Already compacted"]);
    expect(await compactions(s.id)).toHaveLength(1);
  });

  it("reports the §13.4 messages for a small session and a compaction model without a key", async () => {
    const small = await newSession();
    expect(errors(await readAll(await compactRun(small.id)))).toEqual(["Nothing to compact (session too small)"]);
    const keyless = await seeded({ ...KEEP, agent: { compactionModel: "anthropic/claude-sonnet-4-5" } });
    expect(errors(await readAll(await compactRun(keyless.id)))).toEqual(["No API key for anthropic"]);
    expect(await compactions(keyless.id)).toHaveLength(0);
  });

  it("aborting the request cancels the compaction and writes nothing", async () => {
    const s = await seeded();
    const before = (await storedEntries(s.id)).length;
    h.fake.setDefault(() => ({ text: "## Goal\nA slow summary that streams for a while", chunkSize: 2, delayMs: 20 }));
    const controller = new AbortController();
    const res = await compactRun(s.id, {}, controller.signal);
    const chunks = [];
    for await (const chunk of readUIStream(res)) {
      chunks.push(chunk);
      if (chunk.type === "data-compaction" && (chunk.data as { phase: string }).phase === "delta") controller.abort();
    }
    expect(errors(chunks)).toEqual(["Compaction cancelled"]);
    expect(dataOf(chunks, "compaction").at(-1)).toMatchObject({ phase: "end", aborted: true });
    await waitForRun(s.id);
    expect((await storedEntries(s.id)).length).toBe(before);
  });

  it("Stop cancels it too", async () => {
    const s = await seeded();
    h.fake.setDefault(() => ({ text: "## Goal\nA slow summary that streams for a while", chunkSize: 2, delayMs: 20 }));
    const res = await compactRun(s.id);
    const chunks = [];
    for await (const chunk of readUIStream(res)) {
      chunks.push(chunk);
      if (chunk.type === "data-compaction" && (chunk.data as { phase: string }).phase === "start") await stop(s.id);
    }
    expect(errors(chunks)).toEqual(["Compaction cancelled"]);
    expect(await compactions(s.id)).toHaveLength(0);
  });

  it("stops a running turn first (session-engine.md §13.4 step 1), then compacts", async () => {
    const s = await seeded();
    h.fake.script({ text: "a very slow answer that takes its time", chunkSize: 2, delayMs: 30 });
    const turn = readUIStream(await postChat(s.id, "go on"));
    // Compact once the turn is mid-reply (its first text arrived), not after a guessed delay.
    for (let next = await turn.next(); ; next = await turn.next()) {
      if (next.done) throw new Error("the turn ended before it streamed any text");
      if (next.value.type === "text-delta") break;
    }
    const chunks = await readAll(await compactRun(s.id));
    for await (const _ of turn); // the rest of the aborted turn's stream
    expect(errors(chunks)).toEqual([]);
    const path = await storedPath(s.id);
    const aborted = path.find((e) => e.type === "message" && e.message.role === "assistant" && e.message.stopReason === "aborted");
    expect(aborted).toBeDefined();
    expect(path.at(-1)?.type).toBe("compaction");
  });

  it("409 while a compaction is already running; 404 for an unknown session; 400 for a bad body", async () => {
    const s = await seeded();
    h.fake.setDefault(() => ({ text: "## Goal\nslow", chunkSize: 1, delayMs: 30 }));
    const first = await compactRun(s.id);
    const second = await compactRun(s.id);
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ error: "A compaction is already running in this session", code: "busy" });
    await readAll(first);
    expect((await compactRun("missing")).status).toBe(404);
    expect((await compactRun(s.id, { focus: 3 })).status).toBe(400);
  });
});

describe("remote compaction endpoint (session-engine.md §7)", () => {
  let server: Server;
  const received: unknown[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        received.push(JSON.parse(body));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ summary: "## Goal\nRemote summary", shortSummary: "Remote short" }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("POSTs { systemPrompt, prompt } to the endpoint and stores its summary", async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/summarize`;
    const s = await seeded({ compaction: { keepRecentTokens: 150, remoteEndpoint: url } });
    const chunks = await readAll(await compactRun(s.id));
    expect(errors(chunks)).toEqual([]);
    expect(received.length).toBeGreaterThan(0);
    const first = received[0] as Record<string, unknown>;
    expect(Object.keys(first).sort()).toEqual(["prompt", "systemPrompt"]);
    expect(String(first.prompt)).toContain("question 0");
    const [entry] = await compactions(s.id);
    expect(entry?.summary).toContain("Remote summary");
    expect(h.fake.requests.filter(looksLikeSummarization)).toHaveLength(0);
  });
});

describe("compaction hooks from a project hooks file (session-engine.md §12)", () => {
  let dir: string;
  const g = globalThis as typeof globalThis & { __arborHookLog?: string[]; __arborHookCancel?: boolean };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "arbor-hooks-"));
    const file = path.join(dir, "arbor.hooks.ts");
    await writeFile(
      file,
      `import { defineHooks } from "@/lib/hooks";
const g = globalThis as typeof globalThis & { __arborHookLog?: string[]; __arborHookCancel?: boolean };
const log = (s: string): void => { (g.__arborHookLog ??= []).push(s); };
export default defineHooks((api) => {
  api.on("session_before_compact", (e) => { log("file:before:" + (e.customInstructions ?? "")); return g.__arborHookCancel ? { cancel: true } : undefined; });
  api.on("session.compacting", () => { log("file:compacting"); return { context: ["Remember the hook context"] }; });
  api.on("session_compact", (e) => { log("file:compact:" + e.fromExtension); });
});
`,
    );
    setProjectHooksFile(file);
  });
  afterAll(async () => {
    setProjectHooksFile(null);
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    g.__arborHookLog = [];
    g.__arborHookCancel = false;
  });

  it("runs the file's hooks, then later sources, in order; session.compacting context reaches the prompt", async () => {
    const remove = addHookSource("second", (api) => {
      api.on("session_before_compact", () => {
        g.__arborHookLog?.push("second:before");
      });
      api.on("session_compact", () => {
        g.__arborHookLog?.push("second:compact");
      });
    });
    try {
      const s = await seeded();
      expect(errors(await readAll(await compactRun(s.id, { focus: "focus" })))).toEqual([]);
      expect(g.__arborHookLog).toEqual(["file:before:focus", "second:before", "file:compacting", "file:compact:false", "second:compact"]);
      expect(h.fake.requests.find(looksLikeSummarization)?.lastUserText).toContain("Remember the hook context");
    } finally {
      remove();
    }
  });

  it("a hook's cancel stops the compaction: Compaction cancelled, nothing written", async () => {
    g.__arborHookCancel = true;
    const s = await seeded();
    expect(errors(await readAll(await compactRun(s.id)))).toEqual(["Compaction cancelled"]);
    expect(await compactions(s.id)).toHaveLength(0);
    expect(h.fake.requests).toHaveLength(0);
  });
});
