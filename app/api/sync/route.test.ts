/**
 * POST /api/sync on a real database and a real folder: folders outside ARBOR_ALLOWED_ROOTS are
 * refused before anything is read, a sync streams its events, and aborting the request stops it.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configureChatRuntime, resetChatRuntime } from "@/lib/chat/runtime-config";
import { loadEntries } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { countEntries } from "@/lib/formats/count";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { useTestDatabase } from "@/test/db";
import type { SyncStreamEvent } from "@/lib/types/sync-events";
import { POST } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

let root = "";
let outside = "";
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-sync-root-")));
  outside = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-sync-outside-")));
  configureChatRuntime({ allowedRoots: [root] });
});
afterAll(() => {
  resetChatRuntime();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function post(body: unknown, signal?: AbortSignal): Promise<Response> {
  return POST(new Request("http://arbor.test/api/sync", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), ...(signal ? { signal } : {}) }));
}

async function events(response: Response): Promise<SyncStreamEvent[]> {
  const text = await response.text();
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as SyncStreamEvent);
}

/** A watching sync of `dir` over the route: `until` reads the stream until it matches (and returns all read so far). */
async function watching(dir: string) {
  const controller = new AbortController();
  const response = await post({ folders: [dir], watch: true }, controller.signal);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return {
    async until(re: RegExp): Promise<string> {
      while (!re.test(text)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`stream ended before ${re}: ${text}`);
        text += value;
      }
      return text;
    },
    async stop(): Promise<void> {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}

describe("POST /api/sync", () => {
  it("refuses a folder outside the allowed roots, a relative path and a body that is not JSON", async () => {
    const r = await post({ folders: [outside] });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toBe(`Folder ${outside} is not inside an allowed root (${root})`);
    expect((await post({ folders: ["relative/dir"] })).status).toBe(400);
    const form = await POST(new Request("http://arbor.test/api/sync", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }));
    expect(form.status).toBe(415);
  });

  it("answers every folder outside the roots alike: it does not tell whether a path exists or is a file", async () => {
    writeFileSync(path.join(outside, "file.txt"), "x");
    symlinkSync(path.join(outside, "nothing"), path.join(root, "to-nowhere"));
    symlinkSync(path.join(outside, "file.txt"), path.join(root, "to-file"));
    const candidates = [outside, path.join(outside, "file.txt"), path.join(outside, "nothing"), "/nonexistent/deep/folder", path.join(root, "to-nowhere"), path.join(root, "to-file")];
    for (const folder of candidates) {
      const r = await post({ folders: [folder] });
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toBe(`Folder ${folder} is not inside an allowed root (${root})`);
    }
    rmSync(path.join(root, "to-nowhere"));
    rmSync(path.join(root, "to-file"));
  });

  it("syncs a folder inside a root and streams one line per file and the run's counts", async () => {
    const gen = generateClaudeCodeSession({ seed: 51, turns: 4 });
    const file = path.join(root, "s.jsonl");
    writeFileSync(file, gen.text);
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const list = await events(await post({ folders: [root] }));
    expect(list[0]).toEqual({ type: "start", files: 1, bytes: Buffer.byteLength(gen.text), folders: [root] });
    const line = list.find((e) => e.type === "file");
    expect(line).toMatchObject({ file, bytes: Buffer.byteLength(gen.text), outcome: { kind: "imported", sessionId: gen.sessionId }, text: expect.stringMatching(/^imported → /) });
    expect(list.at(-1)).toMatchObject({ type: "run", kind: "initial", counts: { imported: 1 }, watching: false });
    expect(countEntries(await loadEntries({ sessionId: gen.sessionId }))).toEqual(gen.expected);
  });

  it("with watch, keeps the stream open and reports changes until the request is aborted", async () => {
    const dir = path.join(root, "watched");
    mkdirSync(dir);
    const watch = await watching(dir);
    await watch.until(/"type":"run"/);
    const gen = generateClaudeCodeSession({ seed: 52, turns: 3 });
    writeFileSync(path.join(dir, "new.jsonl"), gen.text);
    await watch.until(/"kind":"imported"/);
    await watch.stop();
  }, 30_000);

  it("while watching, a *.jsonl link to a file outside the roots is refused and nothing of it is imported", async () => {
    const dir = path.join(root, "watched-links");
    mkdirSync(dir);
    const gen = generateClaudeCodeSession({ seed: 53, turns: 3 });
    const target = path.join(outside, "private.jsonl");
    writeFileSync(target, gen.text);
    const watch = await watching(dir);
    await watch.until(/"type":"run"/);
    symlinkSync(target, path.join(dir, "link.jsonl"));
    const text = await watch.until(/"kind":"failed"/);
    await watch.stop();
    const line = text.split("\n").find((l) => l.includes('"kind":"failed"'));
    expect(JSON.parse(line!)).toMatchObject({ type: "file", outcome: { kind: "failed", message: "link.jsonl: refused: a link to a file outside the synced folders: not read" } });
    expect(await getDb().session.count({ where: { id: gen.sessionId } })).toBe(0);
  }, 30_000);
});
