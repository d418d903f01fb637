/**
 * The two upload routes the proxy skips (/api/import, /api/sessions/[id]/files: proxy.ts cuts
 * bodies at 10 MB) run the Host and Origin checks and their own content-type check themselves
 * (README "Security"). Real handlers, real database, real workspace folder; `new Request` with the
 * headers a browser or an attacker would send. Nothing is written when a request is refused.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as importPost } from "@/app/api/import/route";
import { GET as listFiles, POST as uploadFile } from "@/app/api/sessions/[id]/files/route";
import { configureChatRuntime, resetChatRuntime } from "@/lib/chat/runtime-config";
import { createSession, listSessions } from "@/lib/db";
import { useTestDatabase } from "@/test/db";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

let base = "";
let sessionId = "";
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "arbor-upload-guard-"));
  configureChatRuntime({ workspacesDir: base });
  sessionId = (await createSession({})).id;
});
afterAll(async () => {
  resetChatRuntime();
  await rm(base, { recursive: true, force: true });
});

const SESSION_FILE = `${JSON.stringify({ type: "session", version: 3, id: "guarded-import", timestamp: "2025-06-01T10:00:00Z", cwd: "/tmp" })}\n`;

type Route = { name: string; send: (headers: Record<string, string>) => Promise<Response> };
const routes: Route[] = [
  {
    name: "POST /api/import",
    send: (headers) => importPost(new Request("http://arbor.test/api/import?fileName=a.jsonl", { method: "POST", headers, body: SESSION_FILE })),
  },
  {
    name: "POST /api/sessions/[id]/files",
    send: (headers) =>
      uploadFile(new Request(`http://arbor.test/api/sessions/${sessionId}/files?path=a.txt`, { method: "POST", headers, body: "x" }), {
        params: Promise.resolve({ id: sessionId }),
      }),
  },
];
const BINARY = { "content-type": "application/octet-stream" };

async function nothingWritten() {
  expect(await readdir(path.join(base, sessionId)).catch(() => [])).toEqual([]);
  expect((await listSessions({ limit: 100 })).sessions.some((s) => s.id === "guarded-import")).toBe(false);
}

describe.each(routes)("$name", ({ send }) => {
  it("refuses a foreign or rebinding Host with 421 naming ARBOR_ALLOWED_HOSTS", async () => {
    for (const host of ["evil.example", "rebind.attacker.test:3000", "127.0.0.2"]) {
      const res = await send({ ...BINARY, host });
      expect(res.status).toBe(421);
      expect(((await res.json()) as { error: string }).error).toContain("ARBOR_ALLOWED_HOSTS");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
    expect((await send({ ...BINARY, "x-forwarded-host": "evil.example" })).status).toBe(421);
    await nothingWritten();
  });

  it("refuses another origin, another port and a cross-site fetch with 403", async () => {
    const variants: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "http://arbor.test:8080" }, { origin: "null" }, { "sec-fetch-site": "same-site" }, { "sec-fetch-site": "cross-site" }];
    for (const headers of variants) {
      const res = await send({ ...BINARY, ...headers });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: "forbidden_origin", error: expect.stringMatching(/^Cross-site request refused/) });
    }
    await nothingWritten();
  });

  it("refuses text/plain, form types and a missing type with 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", undefined]) {
      const res = await send({ origin: "http://arbor.test", ...(type ? { "content-type": type } : {}) });
      expect(res.status).toBe(415);
      expect(((await res.json()) as { error: string }).error).toMatch(/must be sent as content-type: application\/octet-stream/);
    }
    await nothingWritten();
  });
});

describe("same origin still works", () => {
  it("uploads a file and imports a session from the page's own origin", async () => {
    const up = await routes[1]!.send({ ...BINARY, origin: "http://arbor.test", "sec-fetch-site": "same-origin" });
    expect(up.status).toBe(201);
    const imported = await routes[0]!.send({ "content-type": "application/x-ndjson", origin: "http://arbor.test" });
    expect(imported.status).toBe(200);
    expect((await imported.text()).trim().split("\n").at(-1)).toContain('"type":"done"');
    const listing = await listFiles(new Request(`http://arbor.test/api/sessions/${sessionId}/files`, { headers: { host: "evil.example" } }), { params: Promise.resolve({ id: sessionId }) });
    expect(listing.status).toBe(421);
  });
});
