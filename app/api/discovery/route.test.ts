/**
 * The first start on a fake home (HOME and CLAUDE_CONFIG_DIR pointing at temp folders), real
 * database: the agent folders are listed with their counts, the sync refuses them until the user
 * consents, the consent is remembered, and then the sync imports them.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as syncPost } from "@/app/api/sync/route";
import { listAllowedRoots } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { useTestDatabase } from "@/test/db";
import { GET, POST } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

const home = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-first-start-")));
const saved = { HOME: process.env.HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR, ARBOR_ALLOWED_ROOTS: process.env.ARBOR_ALLOWED_ROOTS };
beforeAll(() => {
  process.env.HOME = home;
  process.env.CLAUDE_CONFIG_DIR = path.join(home, "cc");
  delete process.env.ARBOR_ALLOWED_ROOTS;
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(home, { recursive: true, force: true });
});

const json = (url: string, body: unknown) =>
  new Request(`http://localhost${url}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

interface Listed {
  agent: string;
  path: string;
  files: number;
  bytes: number;
  allowed: boolean;
}

async function sessionCount(): Promise<number> {
  const [row] = await getDb().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM sessions`);
  return row!.n;
}

describe("first start: the agent folders, consent, sync", () => {
  it("lists the folders with counts, refuses to sync before consent, remembers consent, then syncs", async () => {
    const gen = generateClaudeCodeSession({ seed: 501, turns: 3 });
    const projects = path.join(home, "cc", "projects");
    const file = path.join(projects, "-src-app", `${gen.sessionId}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, gen.text);
    const codex = path.join(home, ".codex", "sessions", "2026", "01");
    mkdirSync(codex, { recursive: true });

    const listed = (await (await GET(new Request("http://localhost/api/discovery"))).json()) as { folders: Listed[] };
    expect(listed.folders.map((f) => [f.agent, f.path, f.files, f.bytes, f.allowed])).toEqual([
      ["claude-code", projects, 1, Buffer.byteLength(gen.text), false],
      ["codex", path.join(home, ".codex", "sessions"), 0, 0, false],
    ]);

    // Before consent the sync refuses the folder, and nothing was imported.
    const before = await sessionCount();
    expect((await syncPost(json("/api/sync", { folders: [projects] }))).status).toBe(400);
    expect(await sessionCount()).toBe(before);
    // Only a folder the discovery found can be allowed here.
    expect((await POST(json("/api/discovery", { folders: [home] }))).status).toBe(400);

    const consent = await POST(json("/api/discovery", { folders: [projects] }));
    expect(consent.status).toBe(200);
    expect(await listAllowedRoots()).toContain(projects);
    const again = (await (await GET(new Request("http://localhost/api/discovery"))).json()) as { folders: Listed[] };
    expect(again.folders.find((f) => f.agent === "claude-code")?.allowed).toBe(true);
    expect(again.folders.find((f) => f.agent === "codex")?.allowed).toBe(false);

    const synced = await syncPost(json("/api/sync", { folders: [projects] }));
    expect(synced.status).toBe(200);
    const events = (await synced.text()).trim().split("\n").map((l) => JSON.parse(l) as { type: string; outcome?: { kind: string; sessionId?: string } });
    expect(events.find((e) => e.type === "file")?.outcome).toMatchObject({ kind: "imported", sessionId: gen.sessionId });
    expect(await sessionCount()).toBe(before + 1);
  });
});
