/**
 * Every tool against every escape route, on real folders and real symlinks: nothing outside the
 * workspace may be read, listed, searched, created or changed.
 */
import { readdir, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool, makeSandbox, put, SECRET, type Sandbox } from "@/test/tools-sandbox";

let sb: Sandbox;
beforeEach(async () => {
  sb = await makeSandbox();
  await put(sb.root, { "inside.txt": "inside\n" });
  await symlink(path.join(sb.outside, "secret.txt"), path.join(sb.root, "secret-link"));
  await symlink(sb.outside, path.join(sb.root, "outdir"));
});
afterEach(async () => {
  await sb.cleanup();
});

/** Each tool's arguments for a given path. */
const tools: Record<string, (p: string) => Record<string, unknown>> = {
  read: (p) => ({ path: p }),
  write: (p) => ({ path: p, content: "PWNED" }),
  edit: (p) => ({ path: p, oldText: "TOP", newText: "PWNED" }),
  ls: (p) => ({ path: p }),
  find: (p) => ({ pattern: "*", path: p }),
  grep: (p) => ({ pattern: "SECRET", path: p }),
};

const escapes: [label: string, path: string, reason: RegExp][] = [
  ["parent", "../outside/secret.txt", /is outside the workspace/],
  ["bare ..", "..", /is outside the workspace/],
  ["nested ..", "a/../../outside/secret.txt", /is outside the workspace/],
  ["absolute", "/etc/passwd", /is absolute/],
  ["absolute to outside", "/tmp", /is absolute/],
  ["symlink to a file outside", "secret-link", /outside the workspace \(through a symbolic link\)/],
  ["symlink to a folder outside", "outdir", /through a symbolic link/],
  ["file under a symlinked folder", "outdir/secret.txt", /through a symbolic link/],
  ["new file under a symlinked folder", "outdir/new/created.txt", /through a symbolic link/],
  ["home", "~", /"~" paths are not allowed/],
  ["home file", "~/.bashrc", /"~" paths are not allowed/],
  ["NUL byte", "inside.txt\0.png", /contains a NUL byte/],
  ["very long path", `${"deep/".repeat(1000)}x`, /is too long/],
  ["very long name", "n".repeat(300), /longer than 255 bytes/],
];

async function outsideUntouched() {
  expect(await readFile(path.join(sb.outside, "secret.txt"), "utf8")).toBe(`${SECRET}\n`);
  expect(await readdir(sb.outside)).toEqual(["secret.txt"]);
  expect((await readdir(sb.base)).sort()).toEqual(["outside", "ws"]);
}

describe.each(Object.keys(tools))("%s refuses escapes", (tool) => {
  it.each(escapes)("%s: %j", async (_label, userPath, reason) => {
    const r = await callTool(sb.root, tool, tools[tool]!(userPath));
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(reason);
    expect(r.text).toContain(JSON.stringify(userPath.length > 200 ? `${userPath.slice(0, 200)}…` : userPath));
    expect(r.text).not.toContain(SECRET);
    await outsideUntouched();
  });
});

describe("tools working on the whole workspace stay inside it", () => {
  it("ls, find and grep over '.' never show outside content", async () => {
    const ls = await callTool(sb.root, "ls", {});
    const find = await callTool(sb.root, "find", { pattern: "**" });
    const grep = await callTool(sb.root, "grep", { pattern: "SECRET" });
    for (const r of [ls, find, grep]) {
      expect(r.isError).toBe(false);
      expect(r.text).not.toContain(SECRET);
      expect(r.text).not.toContain(sb.outside);
      expect(r.text).not.toContain("secret.txt");
    }
  });

  it("write and edit through a broken symlink pointing outside are refused and create nothing", async () => {
    await symlink(path.join(sb.outside, "planted.txt"), path.join(sb.root, "dangling"));
    const w = await callTool(sb.root, "write", { path: "dangling", content: "x" });
    expect(w).toMatchObject({ isError: true, text: 'Path "dangling" goes through a broken symbolic link' });
    const e = await callTool(sb.root, "edit", { path: "dangling", oldText: "a", newText: "b" });
    expect(e.isError).toBe(true);
    await outsideUntouched();
  });

  it("paths that only look odd but stay inside work", async () => {
    await put(sb.root, { "dir/x.txt": "x\n" });
    expect((await callTool(sb.root, "read", { path: "dir/../inside.txt" })).text).toBe("1\tinside");
    expect((await callTool(sb.root, "read", { path: "./dir//x.txt" })).text).toBe("1\tx");
    expect((await callTool(sb.root, "write", { path: "dir/a~b.txt", content: "ok" })).isError).toBe(false);
  });
});
