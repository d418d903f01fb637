import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool, makeSandbox, put, type Sandbox } from "@/test/tools-sandbox";

let sb: Sandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

describe("ls", () => {
  it('lists "." by default, sorted, folders with "/", files with sizes, dot-files included', async () => {
    await put(sb.root, { "b.txt": "12345", "a/x.txt": "", ".env": "K=V", "C.md": "x".repeat(2048) });
    const r = await callTool(sb.root, "ls", {});
    expect(r.isError).toBe(false);
    expect(r.text).toBe([".env  3 B", "C.md  2 KB", "a/", "b.txt  5 B"].join("\n"));
  });

  it("lists a sub-folder, an empty folder, and a single file", async () => {
    await put(sb.root, { "src/z.ts": "z", "src/lib/y.ts": "yy" });
    await mkdir(path.join(sb.root, "empty"));
    expect((await callTool(sb.root, "ls", { path: "src" })).text).toBe("lib/\nz.ts  1 B");
    expect((await callTool(sb.root, "ls", { path: "empty" })).text).toBe("(empty is empty)");
    expect((await callTool(sb.root, "ls", { path: "src/lib/y.ts" })).text).toBe("src/lib/y.ts  2 B");
    expect((await callTool(sb.root, "ls", { path: "nope" })).text).toBe('Path "nope" does not exist');
  });

  it("shows symlinks without revealing what lies outside", async () => {
    await put(sb.root, { "real.txt": "abc", "d/k": "" });
    await symlink("real.txt", path.join(sb.root, "in-file"));
    await symlink("d", path.join(sb.root, "in-dir"));
    await symlink(sb.outside, path.join(sb.root, "out-dir"));
    await symlink(path.join(sb.outside, "secret.txt"), path.join(sb.root, "out-file"));
    await symlink(path.join(sb.outside, "gone"), path.join(sb.root, "broken"));
    const r = await callTool(sb.root, "ls", {});
    expect(r.text).toBe(
      [
        "broken (broken symbolic link)",
        "d/",
        "in-dir/ (link)",
        "in-file  3 B (link)",
        "out-dir (symbolic link to outside the workspace)",
        "out-file (symbolic link to outside the workspace)",
        "real.txt  3 B",
      ].join("\n"),
    );
    expect(r.text).not.toContain(sb.outside);
  });

  it("caps long listings with a note", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, "0")}.txt`] = "";
    await put(sb.root, files);
    const r = await callTool(sb.root, "ls", {}, { limits: { maxOutputLines: 10 } });
    expect(r.text.split("\n").slice(0, 10).at(-1)).toBe("f09.txt  0 B");
    expect(r.text).toContain("[Output truncated: showing entries 1-10 of 30. Use find with a pattern to narrow the listing.]");
  });
});

describe("find", () => {
  beforeEach(async () => {
    await put(sb.root, {
      "README.md": "",
      "src/index.ts": "",
      "src/util/strings.ts": "",
      "src/util/strings.test.ts": "",
      ".github/workflows/ci.yml": "",
      "node_modules/pkg/index.ts": "",
      ".git/config": "",
    });
  });

  it("matches a slash-less glob against file names at any depth, skipping node_modules and .git", async () => {
    const r = await callTool(sb.root, "find", { pattern: "*.ts" });
    expect(r.text).toBe(["src/index.ts", "src/util/strings.test.ts", "src/util/strings.ts"].join("\n"));
  });

  it("matches globs with folders against paths relative to `path`, printing workspace-relative paths", async () => {
    expect((await callTool(sb.root, "find", { pattern: "**/*.test.ts" })).text).toBe("src/util/strings.test.ts");
    expect((await callTool(sb.root, "find", { pattern: "util/*.ts", path: "src" })).text).toBe(
      "src/util/strings.test.ts\nsrc/util/strings.ts",
    );
    expect((await callTool(sb.root, "find", { pattern: "util", path: "src" })).text).toBe("src/util/");
    expect((await callTool(sb.root, "find", { pattern: "*.yml" })).text).toBe(".github/workflows/ci.yml");
  });

  it("reports no matches, a missing folder and a file given as the folder", async () => {
    expect((await callTool(sb.root, "find", { pattern: "*.rs" })).text).toBe('No paths match "*.rs" in .');
    expect((await callTool(sb.root, "find", { pattern: "*", path: "nope" })).text).toBe('Path "nope" does not exist');
    expect((await callTool(sb.root, "find", { pattern: "*", path: "README.md" })).text).toBe(
      'Path "README.md" is not a folder',
    );
  });

  it("lists symlinks but never walks through them", async () => {
    await symlink(sb.outside, path.join(sb.root, "src/outlink"));
    const r = await callTool(sb.root, "find", { pattern: "*" });
    expect(r.text).toContain("src/outlink");
    expect(r.text).not.toContain("secret.txt");
    const refused = await callTool(sb.root, "find", { pattern: "*", path: "src/outlink" });
    expect(refused).toMatchObject({ isError: true, text: 'Path "src/outlink" is outside the workspace (through a symbolic link)' });
  });

  it("caps results with a note", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`many/f${i}.log`] = "";
    await put(sb.root, files);
    const r = await callTool(sb.root, "find", { pattern: "*.log" }, { limits: { maxResults: 5 } });
    expect(r.text.split("\n\n")[0]!.split("\n")).toHaveLength(5);
    expect(r.text).toContain("[Output truncated at 5 entries: showing entries 1-5. Narrow the pattern or the path.]");
    const scan = await callTool(sb.root, "find", { pattern: "*.log" }, { limits: { maxScanEntries: 3 } });
    expect(scan.text).toContain("after scanning 3 entries");
  });
});
