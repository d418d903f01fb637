/**
 * GET /api/sessions/events on the real database: the session list hears of a session a folder
 * sync imported and of lines it appended — from this process and from ANOTHER one (the CLI's
 * `sync`, a real child process) — as `change` events naming the session.
 */
import { execFile } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { syncFolders } from "@/lib/sync/sync-folders";
import { generateSessionJsonl } from "@/test/generators/session";
import { PROJECT_ROOT } from "@/test/cli-helpers";
import { useTestDatabase } from "@/test/db";
import { eventReader } from "@/test/sse-reader";
import { GET } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
const db = useTestDatabase();
const dir = mkdtempSync(path.join(tmpdir(), "arbor-list-events-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cliSync(): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--conditions=react-server", "--import", "tsx", "cli/main.ts", "sync", dir], { cwd: PROJECT_ROOT, env: { ...process.env, DATABASE_URL: db.url } }, (error) =>
      resolve(error ? Number(error.code ?? 1) : 0),
    );
  });
}

function piFile(name: string, seed: number): { file: string; id: string } {
  const text = generateSessionJsonl({ seed, entries: 4 });
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return { file, id: (JSON.parse(text.split("\n")[0]!) as { id: string }).id };
}

describe("GET /api/sessions/events", () => {
  it("tells the list of a session imported or appended by a sync, here or in another process", async () => {
    const controller = new AbortController();
    const res = await GET(new Request("http://localhost/api/sessions/events", { signal: controller.signal }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const next = eventReader(res);
    expect(await next()).toEqual({ event: "ready", data: {} });

    const a = piFile("a.jsonl", 7101);
    await syncFolders([dir], { settleMs: 0 });
    expect(await next()).toEqual({ event: "change", data: { id: a.id } });

    // Another process imports one file and appends to the other.
    const b = piFile("b.jsonl", 7102);
    const last = JSON.parse(generateSessionJsonl({ seed: 7101, entries: 4 }).trim().split("\n").at(-1)!) as { id: string; timestamp: string };
    const line = { type: "message", id: "added01", parentId: last.id, timestamp: last.timestamp, message: { role: "user", content: "one more", timestamp: Date.parse(last.timestamp) } };
    appendFileSync(a.file, `${JSON.stringify(line)}\n`);
    expect(await cliSync()).toBe(0);
    const heard = new Set<unknown>();
    while (heard.size < 2) heard.add(((await next()).data as { id: string }).id);
    expect(heard).toEqual(new Set([a.id, b.id]));
    controller.abort();
  }, 60_000);
});
