import { readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EditDetails } from "./edit";
import { callTool, makeSandbox, put, type Sandbox } from "@/test/tools-sandbox";
import type { WriteDetails } from "./write";

let sb: Sandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

const text = (rel: string) => readFile(path.join(sb.root, rel), "utf8");

describe("write", () => {
  it("creates a file and its parent folders, saying how many bytes it wrote", async () => {
    const r = await callTool(sb.root, "write", { path: "a/b/c.txt", content: "héllo\n" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe("Created a/b/c.txt: wrote 7 bytes");
    expect(await text("a/b/c.txt")).toBe("héllo\n");
    const d = r.details as WriteDetails;
    expect(d).toMatchObject({ path: "a/b/c.txt", bytes: 7, created: true });
    expect(d.diff).toContain("--- a/a/b/c.txt");
    expect(d.diff).toContain("+++ b/a/b/c.txt");
    expect(d.diff).toContain("+héllo");
  });

  it("overwrites, with a unified diff old→new in details", async () => {
    await put(sb.root, { "f.txt": "one\ntwo\nthree\n" });
    const r = await callTool(sb.root, "write", { path: "f.txt", content: "one\nTWO\nthree\n" });
    expect(r.text).toBe("Overwrote f.txt: wrote 14 bytes");
    const d = r.details as WriteDetails;
    expect(d.created).toBe(false);
    expect(d.diff).toContain("@@ -1,3 +1,3 @@");
    expect(d.diff).toContain("-two\n+TWO");
    expect(await text("f.txt")).toBe("one\nTWO\nthree\n");
  });

  it("leaves the diff out when the old file was binary or the diff is too large", async () => {
    await put(sb.root, { "b.bin": new Uint8Array([0, 1, 2]) });
    const bin = (await callTool(sb.root, "write", { path: "b.bin", content: "text" })).details as WriteDetails;
    expect(bin.diff).toBeUndefined();
    expect(bin.diffOmitted).toBe("binary");
    const big = await callTool(sb.root, "write", { path: "big.txt", content: "x\n".repeat(5000) }, { limits: { maxDiffBytes: 1000 } });
    expect((big.details as WriteDetails).diffOmitted).toBe("tooLarge");
    expect(big.isError).toBe(false);
  });

  it("refuses content over the write limit, touching nothing", async () => {
    const r = await callTool(sb.root, "write", { path: "x.txt", content: "z".repeat(3000) }, { limits: { maxWriteBytes: 2048 } });
    expect(r.isError).toBe(true);
    expect(r.text).toBe('Content for "x.txt" is 2.9 KB, over the 2 KB write limit');
    await expect(readFile(path.join(sb.root, "x.txt"))).rejects.toThrow();
  });

  it("refuses to write over a folder", async () => {
    await put(sb.root, { "d/x": "" });
    const r = await callTool(sb.root, "write", { path: "d", content: "x" });
    expect(r).toMatchObject({ isError: true, text: 'Path "d" is a folder, not a file' });
  });

  it("writes through an inside symlink to its real target", async () => {
    await put(sb.root, { "real.txt": "old" });
    await symlink("real.txt", path.join(sb.root, "alias.txt"));
    await callTool(sb.root, "write", { path: "alias.txt", content: "new" });
    expect(await text("real.txt")).toBe("new");
  });
});

describe("edit", () => {
  it("replaces a unique exact match, with a diff and the changed line in details", async () => {
    await put(sb.root, { "src/app.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
    const r = await callTool(sb.root, "edit", { path: "src/app.ts", oldText: "const b = 2;", newText: "const b = 20;\nconst bb = 21;" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe("Edited src/app.ts: replaced 1 line with 2 lines at line 2");
    expect(await text("src/app.ts")).toBe("const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n");
    const d = r.details as EditDetails;
    expect(d.path).toBe("src/app.ts");
    expect(d.firstChangedLine).toBe(2);
    expect(d.diff).toContain("-const b = 2;\n+const b = 20;\n+const bb = 21;");
  });

  it("treats replacement text literally ($& and $1 are not patterns)", async () => {
    await put(sb.root, { "f.txt": "price: X\n" });
    await callTool(sb.root, "edit", { path: "f.txt", oldText: "X", newText: "$& $1 $$" });
    expect(await text("f.txt")).toBe("price: $& $1 $$\n");
  });

  it('fails with "oldText not found in <path>" when nothing matches', async () => {
    await put(sb.root, { "f.txt": "hello\n" });
    const r = await callTool(sb.root, "edit", { path: "f.txt", oldText: "Hello", newText: "bye" });
    expect(r).toMatchObject({ isError: true, text: "oldText not found in f.txt" });
    expect(await text("f.txt")).toBe("hello\n");
  });

  it("hints at CRLF line endings when a multi-line oldText misses", async () => {
    await put(sb.root, { "w.txt": "a\r\nb\r\n" });
    const r = await callTool(sb.root, "edit", { path: "w.txt", oldText: "a\nb", newText: "c" });
    expect(r.text).toBe("oldText not found in w.txt (the file uses CRLF line endings)");
  });

  it("fails when oldText matches several places, counting them", async () => {
    await put(sb.root, { "f.txt": "x = 1;\nx = 1;\nx = 1;\n" });
    const r = await callTool(sb.root, "edit", { path: "f.txt", oldText: "x = 1;", newText: "x = 2;" });
    expect(r).toMatchObject({ isError: true, text: "oldText matches 3 places in f.txt; include more context" });
    expect(await text("f.txt")).toBe("x = 1;\nx = 1;\nx = 1;\n");
  });

  it("counts overlapping matches as ambiguous", async () => {
    await put(sb.root, { "f.txt": "aaa" });
    const r = await callTool(sb.root, "edit", { path: "f.txt", oldText: "aa", newText: "b" });
    expect(r.text).toBe("oldText matches 2 places in f.txt; include more context");
  });

  it("refuses binary files, missing files, identical texts and an empty oldText", async () => {
    await put(sb.root, { "b.bin": new Uint8Array([0x41, 0, 0x42]), "t.txt": "abc" });
    expect((await callTool(sb.root, "edit", { path: "b.bin", oldText: "A", newText: "B" })).text).toBe(
      'Cannot edit "b.bin": it is a binary file',
    );
    expect((await callTool(sb.root, "edit", { path: "no.txt", oldText: "A", newText: "B" })).text).toBe(
      'File "no.txt" does not exist',
    );
    expect((await callTool(sb.root, "edit", { path: "t.txt", oldText: "b", newText: "b" })).text).toMatch(/identical/);
    const empty = await callTool(sb.root, "edit", { path: "t.txt", oldText: "", newText: "x" });
    expect(empty.isError).toBe(true);
    expect(empty.text).toMatch(/^Invalid arguments for edit: oldText:/);
  });

  it("refuses files over the size limit", async () => {
    await put(sb.root, { "big.txt": "q".repeat(5000) });
    const r = await callTool(sb.root, "edit", { path: "big.txt", oldText: "q", newText: "r" }, { limits: { maxFileBytes: 4096 } });
    expect(r.text).toBe('File "big.txt" is 4.9 KB, over the 4 KB limit');
  });

  it("keeps a byte-order mark and CRLF endings intact", async () => {
    await put(sb.root, { "bom.txt": "\uFEFFfirst\r\nsecond\r\n" });
    await callTool(sb.root, "edit", { path: "bom.txt", oldText: "second", newText: "2nd" });
    expect(await readFile(path.join(sb.root, "bom.txt"))).toEqual(Buffer.from("\uFEFFfirst\r\n2nd\r\n"));
  });
});
