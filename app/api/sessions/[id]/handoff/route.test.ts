/**
 * "Continue in…" on a real database and real folders (docs/formats.md "Hand-off"): the preview
 * names the file and what it will not hold, the download is the agent's format, "Write" puts the
 * file exactly at the confirmed path inside the agent's folder, never over a file, and never into
 * an agent folder outside the folders Arbor may write to. Secrets are masked unless asked for.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configureChatRuntime, resetChatRuntime } from "@/lib/chat/runtime-config";
import { importSession } from "@/lib/db";
import { detectFormat } from "@/lib/formats/detect";
import { mapSessionText } from "@/lib/formats/map-lines";
import { serializeSession } from "@/lib/session/file/jsonl";
import type { HandoffPreview, HandoffWritten } from "@/lib/types/handoff";
import { jsonObjects } from "@/test/corpus-counters";
import { useTestDatabase } from "@/test/db";
import { generateSession } from "@/test/generators/session";
import { secretSession, secretSessionJsonl } from "@/test/secret-session";
import { GET, POST } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const get = (id: string, query: string) => GET(new Request(`http://arbor.test/api/sessions/${id}/handoff?${query}`), params(id));
const post = (id: string, body: unknown) =>
  POST(new Request(`http://arbor.test/api/sessions/${id}/handoff`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), params(id));

let root = "";
const saved: Record<string, string | undefined> = {};
const AGENT_VARS = ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "PI_CODING_AGENT_DIR"] as const;
const g = generateSession({ seed: 5, entries: 80, branches: 1, compactions: true, cwd: "/home/dev/hand-off" });

beforeAll(async () => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-handoff-")));
  for (const v of AGENT_VARS) saved[v] = process.env[v];
  process.env.CLAUDE_CONFIG_DIR = path.join(root, "claude");
  process.env.CODEX_HOME = path.join(root, "codex");
  process.env.PI_CODING_AGENT_DIR = path.join(root, "pi");
  for (const d of ["claude/projects", "codex/sessions"]) mkdirSync(path.join(root, d), { recursive: true });
  configureChatRuntime({ allowedRoots: [root] });
  await importSession({ source: bytes(serializeSession(g.header, g.entries)), fileName: "gen.jsonl" });
});
afterAll(() => {
  resetChatRuntime();
  for (const v of AGENT_VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
  rmSync(root, { recursive: true, force: true });
});

async function preview(format: string, entry?: string): Promise<HandoffPreview> {
  const res = await get(g.header.id, `format=${format}&preview=1${entry ? `&entry=${entry}` : ""}`);
  expect(res.status).toBe(200);
  return (await res.json()) as HandoffPreview;
}

const confirm = (p: HandoffPreview, over: Record<string, unknown> = {}) => ({ entry: p.entryId, format: p.format, sessionId: p.sessionId, createdAt: p.createdAt, path: p.path, ...over });

describe("GET …/handoff", () => {
  it("previews the file: where it goes in the agent's folder, what it will not hold, how to resume it", async () => {
    const p = await preview("claude");
    expect(p.label).toBe("Claude Code");
    expect(p.path).toBe(path.join(root, "claude", "projects", "-home-dev-hand-off", `${p.sessionId}.jsonl`));
    expect(p.writable).toBe(true);
    expect(p.resume).toBe(`claude --resume ${p.sessionId}`);
    expect(p.notes.join(" ")).toMatch(/on other branches of the session are not written/);
    expect(p.entryId).toBe(g.entries.at(-1)!.id);
  });

  it("downloads the branch to an entry as a Claude Code file that Arbor detects and reads back with its compaction", async () => {
    const chosen = g.entries.at(-1)!;
    const res = await get(g.header.id, `format=claude&entry=${chosen.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="[0-9a-f-]{36}\.jsonl"/);
    const text = await res.text();
    expect(detectFormat(jsonObjects(text))).toBe("claude-code");
    expect(mapSessionText(text)!.entries.some((e) => e.type === "compaction")).toBe(true);
  });

  it("answers 404 for an entry the session does not hold", async () => {
    expect((await get(g.header.id, "format=pi&entry=nope")).status).toBe(404);
  });
});

describe("POST …/handoff", () => {
  it("writes the file at the confirmed path, and never over it", async () => {
    const p = await preview("codex");
    expect(p.path.startsWith(path.join(root, "codex", "sessions") + path.sep)).toBe(true);
    const res = await post(g.header.id, confirm(p));
    expect(res.status).toBe(201);
    const written = (await res.json()) as HandoffWritten;
    expect(written).toEqual({ path: p.path, sessionId: p.sessionId, resume: `codex resume ${p.sessionId}` });
    const text = readFileSync(p.path, "utf8");
    expect(mapSessionText(text)?.header.id).toBe(p.sessionId);
    const again = await post(g.header.id, confirm(p));
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(/already exists/);
    expect(readFileSync(p.path, "utf8")).toBe(text);
  });

  it("writes nothing to a path the user did not confirm", async () => {
    const p = await preview("claude");
    const res = await post(g.header.id, confirm(p, { path: path.join(root, "claude", "projects", "elsewhere.jsonl") }));
    expect(res.status).toBe(400);
    expect(existsSync(p.path)).toBe(false);
  });

  it("refuses an agent folder outside the folders Arbor may write to, and says so in the preview", async () => {
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-handoff-out-")));
    process.env.PI_CODING_AGENT_DIR = outside;
    try {
      const p = await preview("pi");
      expect(p.writable).toBe(false);
      expect(p.why).toMatch(/is not inside a folder Arbor may write to/);
      const res = await post(g.header.id, confirm(p));
      expect(res.status).toBe(403);
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      process.env.PI_CODING_AGENT_DIR = path.join(root, "pi");
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("masks the session's secrets unless the originals are asked for", async () => {
    const s = secretSession(3, "handoff-secret");
    await importSession({ source: bytes(secretSessionJsonl(s)), fileName: "secret.jsonl" });
    const secret = s.expected[0]!.value;
    const masked = await (await get(s.header.id, "format=pi")).text();
    expect(masked).not.toContain(secret);
    const original = await (await get(s.header.id, "format=pi&secrets=include")).text();
    expect(original).toContain(secret);
  });
});
