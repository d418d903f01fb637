/**
 * POST /api/sync on a real database and a real folder: folders outside ARBOR_ALLOWED_ROOTS are
 * refused before anything is read, a sync streams its events, and aborting the request stops it.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configureChatRuntime, resetChatRuntime } from "@/lib/chat/runtime-config";
import { loadEntries } from "@/lib/db";
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

describe("POST /api/sync", () => {
  it("refuses a folder outside the allowed roots, a relative path and a body that is not JSON", async () => {
    const r = await post({ folders: [outside] });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toBe(`Folder ${outside} is not inside an allowed root (${root})`);
    expect((await post({ folders: ["relative/dir"] })).status).toBe(400);
    const form = await POST(new Request("http://arbor.test/api/sync", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }));
    expect(form.status).toBe(415);
  });

  it("syncs a folder inside a root and streams one line per file and the run's counts", async () => {
    const gen = generateClaudeCodeSession({ seed: 51, turns: 4 });
    const file = path.join(root, "s.jsonl");
    writeFileSync(file, gen.text);
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const list = await events(await post({ folders: [root] }));
    expect(list[0]).toEqual({ type: "start", files: 1, folders: [root] });
    const line = list.find((e) => e.type === "file");
    expect(line).toMatchObject({ file, outcome: { kind: "imported", sessionId: gen.sessionId }, text: expect.stringMatching(/^imported → /) });
    expect(list.at(-1)).toMatchObject({ type: "run", kind: "initial", counts: { imported: 1 }, watching: false });
    expect(countEntries(await loadEntries({ sessionId: gen.sessionId }))).toEqual(gen.expected);
  });

  it("with watch, keeps the stream open and reports changes until the request is aborted", async () => {
    const dir = path.join(root, "watched");
    mkdirSync(dir);
    const controller = new AbortController();
    const response = await post({ folders: [dir], watch: true }, controller.signal);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const until = async (re: RegExp) => {
      while (!re.test(text)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`stream ended before ${re}: ${text}`);
        text += value;
      }
    };
    await until(/"type":"run"/);
    const gen = generateClaudeCodeSession({ seed: 52, turns: 3 });
    writeFileSync(path.join(dir, "new.jsonl"), gen.text);
    await until(/"kind":"imported"/);
    controller.abort();
    await reader.cancel().catch(() => undefined);
  }, 30_000);
});
