/**
 * The session file routes on the real database and a real temporary workspaces folder: list,
 * upload, download, and the 4xx answers (never a 500) for refused paths, sizes and sessions.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configureChatRuntime, resetChatRuntime } from "@/lib/chat/runtime-config";
import { MAX_UPLOAD_BYTES } from "@/lib/chat-protocol/workspace-limits";
import { createSession, softDeleteSession } from "@/lib/db";
import type { WorkspaceListing } from "@/lib/types/workspace-files";
import { useTestDatabase } from "@/test/db";
import { GET as download } from "./download/route";
import { GET as list, POST as upload } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

let base: string;
let workspaces: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "arbor-files-route-"));
  workspaces = path.join(base, "workspaces");
  await mkdir(workspaces);
  await writeFile(path.join(base, "secret.txt"), "OUTSIDE-SECRET");
  configureChatRuntime({ workspacesDir: workspaces });
});
afterAll(async () => {
  resetChatRuntime();
  await rm(base, { recursive: true, force: true });
});

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const url = (id: string, sub: string, p?: string) =>
  `http://arbor.test/api/sessions/${encodeURIComponent(id)}/files${sub}${p === undefined ? "" : `?path=${encodeURIComponent(p)}`}`;

function put(id: string, p: string | undefined, body: BodyInit | null, headers: Record<string, string> = {}) {
  const init: RequestInit & { duplex?: "half" } = { method: "POST", body, headers: { "content-type": "application/octet-stream", ...headers } };
  if (body instanceof ReadableStream) init.duplex = "half";
  return upload(new Request(url(id, "", p), init), ctx(id));
}
const get = (id: string, p?: string) => download(new Request(url(id, "/download", p)), ctx(id));
const listing = async (id: string) => (await (await list(new Request(url(id, "")), ctx(id))).json()) as WorkspaceListing;
const errorOf = async (res: Response) => ({ status: res.status, body: (await res.json()) as { error: string; code: string } });

describe("GET/POST /api/sessions/[id]/files", () => {
  it("lists an empty workspace, then the uploaded files with sizes (folders created)", async () => {
    const s = await createSession({});
    expect(await listing(s.id)).toMatchObject({ nodes: [], count: 0, truncated: false, maxEntries: 2000 });

    const res = await put(s.id, "notes.txt", "hello\nworld\n");
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ file: { path: "notes.txt", size: 12 } });
    expect((await put(s.id, "docs/deep/a.md", "# A")).status).toBe(201);
    expect(await readFile(path.join(workspaces, s.id, "notes.txt"), "utf8")).toBe("hello\nworld\n");

    const tree = await listing(s.id);
    expect(tree.nodes.map((n) => [n.path, n.kind, n.size])).toEqual([
      ["docs", "directory", undefined],
      ["notes.txt", "file", 12],
    ]);
    expect(tree.nodes[0]!.children![0]!.children).toEqual([expect.objectContaining({ path: "docs/deep/a.md", size: 3 })]);

    // Re-uploading replaces the file.
    expect((await put(s.id, "notes.txt", "v2")).status).toBe(201);
    expect(await readFile(path.join(workspaces, s.id, "notes.txt"), "utf8")).toBe("v2");
  });

  it("400 with the path named for escapes, absolute and ~ paths, the root and a missing path; nothing written outside", async () => {
    const s = await createSession({});
    for (const [p, message] of [
      ["../x.txt", 'Path "../x.txt" is outside the workspace'],
      ["../../etc/passwd", 'Path "../../etc/passwd" is outside the workspace'],
      ["/tmp/x.txt", 'Path "/tmp/x.txt" is absolute; use a path relative to the workspace'],
      ["~/x.txt", 'Path "~/x.txt" is outside the workspace ("~" paths are not allowed)'],
      [".", 'Path "." is the workspace folder itself'],
    ] as const) {
      expect(await errorOf(await put(s.id, p, "x"))).toEqual({ status: 400, body: { error: message, code: "invalid_input" } });
    }
    expect(await errorOf(await put(s.id, undefined, "x"))).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^path: /) } });
    expect((await readdir(base)).sort()).toEqual(["secret.txt", "workspaces"]);
    expect(await readdir(path.join(workspaces, s.id))).toEqual([]);
  });

  it("413 over the upload limit, declared or streamed, and leaves nothing behind", async () => {
    const s = await createSession({});
    const declared = await put(s.id, "big.bin", "tiny", { "content-length": String(MAX_UPLOAD_BYTES + 1) });
    expect(await errorOf(declared)).toMatchObject({ status: 413, body: { code: "too_large" } });

    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent > MAX_UPLOAD_BYTES) return c.close();
        sent += chunk.byteLength;
        c.enqueue(chunk);
      },
    });
    const streamed = await errorOf(await put(s.id, "big.bin", stream));
    expect(streamed).toEqual({ status: 413, body: { error: 'Upload "big.bin" is over the 50 MB limit', code: "too_large" } });
    expect(await readdir(path.join(workspaces, s.id))).toEqual([]);
  });

  it("413 when fewer bytes arrive than declared (a proxy cut the body): the truncated file is not stored", async () => {
    const s = await createSession({});
    const cut = await errorOf(await put(s.id, "cut.bin", "0123456789", { "content-length": "100" }));
    expect(cut).toMatchObject({ status: 413, body: { code: "too_large", error: expect.stringContaining('Upload "cut.bin" arrived incomplete (10 of 100 bytes); nothing was saved.') } });
    expect(await readdir(path.join(workspaces, s.id))).toEqual([]);
    expect((await put(s.id, "whole.bin", "0123456789", { "content-length": "10" })).status).toBe(201);
  });

  it("404 for unknown and deleted sessions, 400 for a malformed id", async () => {
    expect(await errorOf(await list(new Request(url("nope", "")), ctx("nope")))).toEqual({
      status: 404,
      body: { error: "Session nope not found", code: "not_found" },
    });
    const gone = await createSession({});
    await softDeleteSession({ id: gone.id });
    expect((await put(gone.id, "a.txt", "x")).status).toBe(404);
    expect((await get(gone.id, "a.txt")).status).toBe(404);
    expect((await list(new Request(url(" ", "")), ctx(" "))).status).toBe(400);
  });
});

describe("GET /api/sessions/[id]/files/download", () => {
  it("streams the file as an attachment with its content type", async () => {
    const s = await createSession({});
    await put(s.id, "notes.txt", "line one\nline two\n");
    const res = await get(s.id, "notes.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe("line one\nline two\n");

    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100_000, 1)]);
    await put(s.id, "img/café.png", png);
    const img = await get(s.id, "img/café.png");
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(img.headers.get("content-disposition")).toBe(`attachment; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`);
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
  });

  it("4xx for escapes, symlinks out, folders and missing files; nothing outside is read", async () => {
    const s = await createSession({});
    await put(s.id, "dir/x.txt", "x");
    await symlink(path.join(base, "secret.txt"), path.join(workspaces, s.id, "link.txt"));
    const cases = [
      ["../../secret.txt", 400, 'Path "../../secret.txt" is outside the workspace'],
      ["link.txt", 400, 'Path "link.txt" is outside the workspace (through a symbolic link)'],
      ["dir", 400, 'Path "dir" is not a regular file'],
      ["missing.txt", 404, 'Path "missing.txt" does not exist'],
    ] as const;
    for (const [p, status, error] of cases) {
      const res = await errorOf(await get(s.id, p));
      expect(res).toMatchObject({ status, body: { error } });
      expect(JSON.stringify(res.body)).not.toContain("OUTSIDE-SECRET");
    }
    expect((await get(s.id)).status).toBe(400);
  });
});
