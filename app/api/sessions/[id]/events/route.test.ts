/**
 * GET /api/sessions/[id]/events on the real database: a commit made by ANOTHER process (the CLI's
 * `sync`, a real child process appending an agent's new lines) reaches this process's subscriber
 * as a `change` event; 404 for an unknown session.
 */
import { execFile } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitEntries, getSessionMeta } from "@/lib/db";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { PROJECT_ROOT } from "@/test/cli-helpers";
import { useTestDatabase } from "@/test/db";
import { eventReader } from "@/test/sse-reader";
import { GET } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
const db = useTestDatabase();
const dir = mkdtempSync(path.join(tmpdir(), "arbor-events-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const params = (id: string) => ({ params: Promise.resolve({ id }) });

function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "cli/main.ts", ...args],
      { cwd: PROJECT_ROOT, env: { ...process.env, DATABASE_URL: db.url } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

describe("GET /api/sessions/[id]/events", () => {
  it("streams a commit another process made (a CLI sync appending new lines) to this process's subscriber", async () => {
    const gen = generateClaudeCodeSession({ seed: 91, turns: 4 });
    const lines = gen.text.split("\n").filter((l) => l !== "" && !l.startsWith('{"type":"summary"'));
    const cut = lines.findIndex((l, i) => i > lines.length / 2 && /"type":"user","message":\{"role":"user","content":"/.test(l));
    expect(cut).toBeGreaterThan(0);
    const file = path.join(dir, `${gen.sessionId}.jsonl`);
    writeFileSync(file, `${lines.slice(0, cut).join("\n")}\n`);
    const old = new Date(Date.now() - 120_000);
    utimesSync(file, old, old);
    expect((await cli(["sync", dir])).code).toBe(0);
    const before = await getSessionMeta({ id: gen.sessionId });

    const controller = new AbortController();
    const res = await GET(new Request(`http://localhost/api/sessions/${gen.sessionId}/events`, { signal: controller.signal }), params(gen.sessionId));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const next = eventReader(res);
    expect((await next()).event).toBe("ready");

    appendFileSync(file, `${lines.slice(cut).join("\n")}\n`);
    utimesSync(file, old, new Date(Date.now() - 60_000));
    const synced = await cli(["sync", dir]);
    expect(synced.code, synced.err).toBe(0);
    const change = await next();
    expect(change.event).toBe("change");
    const after = await getSessionMeta({ id: gen.sessionId });
    expect(after.entryCount).toBeGreaterThan(before.entryCount);
    // The event's rev is one the session reached by that commit (several batches may follow).
    expect((change.data as { rev: number }).rev).toBeGreaterThan(0);
    controller.abort();
  }, 120_000);

  it("a commit in this process reaches the subscriber too, and an unknown session is a 404", async () => {
    const gen = generateClaudeCodeSession({ seed: 92, turns: 2 });
    const file = path.join(dir, "two", `${gen.sessionId}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, gen.text);
    const old = new Date(Date.now() - 120_000);
    utimesSync(file, old, old);
    expect((await cli(["sync", path.dirname(file)])).code).toBe(0);
    const controller = new AbortController();
    const next = eventReader(await GET(new Request("http://localhost/x", { signal: controller.signal }), params(gen.sessionId)));
    expect((await next()).event).toBe("ready");
    const meta = await getSessionMeta({ id: gen.sessionId });
    const committed = await commitEntries({ sessionId: gen.sessionId, expectedLeafId: meta.leafId, entries: [{ type: "label", id: "lbl00001", parentId: meta.leafId, timestamp: new Date().toISOString(), targetId: meta.leafId!, label: "seen" }] as never });
    const change = await next();
    expect(change).toEqual({ event: "change", data: { rev: committed.rev } });
    controller.abort();
    expect((await GET(new Request("http://localhost/x"), params("no-such-session"))).status).toBe(404);
  }, 120_000);
});
