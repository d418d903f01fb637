import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool, makeSandbox, put, type Sandbox } from "@/test/tools-sandbox";

let sb: Sandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("read", () => {
  it("returns numbered lines", async () => {
    await put(sb.root, { "src/a.txt": "alpha\nbeta\r\ngamma\n" });
    const r = await callTool(sb.root, "read", { path: "src/a.txt" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe("1\talpha\n2\tbeta\n3\tgamma");
    expect(r.details).toMatchObject({ path: "src/a.txt", startLine: 1, endLine: 3, totalLines: 3, truncated: false });
  });

  it("honours offset (1-based) and limit, pads numbers, and says where to continue", async () => {
    await put(sb.root, { "f.txt": numbered(300) });
    const r = await callTool(sb.root, "read", { path: "f.txt", offset: 98, limit: 5 });
    expect(r.text.split("\n").slice(0, 5)).toEqual([" 98\tline 98", " 99\tline 99", "100\tline 100", "101\tline 101", "102\tline 102"]);
    expect(r.text).toContain("[Showing lines 98-102 of 300. Use offset 103 to read more.]");
  });

  it("refuses an offset past the end", async () => {
    await put(sb.root, { "f.txt": numbered(3) });
    const r = await callTool(sb.root, "read", { path: "f.txt", offset: 10 });
    expect(r.isError).toBe(true);
    expect(r.text).toBe('Offset 10 is past the end of "f.txt", which has 3 lines');
  });

  it("caps at 2000 lines with a note naming the range and the total", async () => {
    await put(sb.root, { "big.txt": numbered(15_320) });
    const r = await callTool(sb.root, "read", { path: "big.txt" });
    const lines = r.text.split("\n");
    expect(lines[1999]).toBe("2000\tline 2000");
    expect(r.text).toContain(
      "[Output truncated: showing lines 1-2000 of 15,320. Use offset/limit to read more (next: offset 2001).]",
    );
    expect(r.details).toMatchObject({ truncated: true, endLine: 2000 });
  });

  it("caps at 50 KB, keeping whole lines, with a byte note", async () => {
    const long = Array.from({ length: 1000 }, (_, i) => `${i + 1}:${"x".repeat(200)}`).join("\n");
    await put(sb.root, { "wide.txt": long });
    const r = await callTool(sb.root, "read", { path: "wide.txt" });
    const body = r.text.slice(0, r.text.indexOf("\n\n["));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50 * 1024);
    const shown = body.split("\n").length;
    expect(shown).toBeGreaterThan(200);
    expect(shown).toBeLessThan(260);
    expect(r.text).toContain(`[Output truncated at 50 KB: showing lines 1-${shown} of 1,000.`);
  });

  it("uses configurable limits", async () => {
    await put(sb.root, { "f.txt": numbered(50) });
    const r = await callTool(sb.root, "read", { path: "f.txt" }, { limits: { maxOutputLines: 10 } });
    expect(r.text).toContain("[Output truncated: showing lines 1-10 of 50.");
  });

  it("cuts a single line longer than the byte cap instead of dropping it", async () => {
    await put(sb.root, { "min.js": "y".repeat(200_000) });
    const r = await callTool(sb.root, "read", { path: "min.js" });
    expect(r.text.startsWith("1\tyyyy")).toBe(true);
    expect(r.text).toContain("Line 1 alone is longer than the output limit and was cut.");
  });

  it("describes binary files instead of dumping them", async () => {
    const png = new Uint8Array(12_345);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await put(sb.root, { "img.png": png, "blob.dat": new Uint8Array([0xff, 0xfe, 0x41, 0xc3]) });
    expect((await callTool(sb.root, "read", { path: "img.png" })).text).toBe("Binary file, 12,345 bytes, image/png");
    // No NUL, but not valid UTF-8.
    expect((await callTool(sb.root, "read", { path: "blob.dat" })).text).toBe(
      "Binary file, 4 bytes, application/octet-stream",
    );
  });

  it("reads UTF-8 text with multi-byte characters and a BOM", async () => {
    await put(sb.root, { "u.txt": "\uFEFFgrüße 🌲\n" });
    expect((await callTool(sb.root, "read", { path: "u.txt" })).text).toBe("1\tgrüße 🌲");
  });

  it("reports empty files, folders, missing files and files over the size limit clearly", async () => {
    await put(sb.root, { "empty.txt": "", "dir/x.txt": "x", "large.txt": "z".repeat(2048) });
    expect((await callTool(sb.root, "read", { path: "empty.txt" })).text).toBe("(empty.txt is empty)");
    expect((await callTool(sb.root, "read", { path: "dir" })).text).toBe('Path "dir" is a folder; use ls to list it');
    expect((await callTool(sb.root, "read", { path: "nope.txt" })).text).toBe('File "nope.txt" does not exist');
    const big = await callTool(sb.root, "read", { path: "large.txt" }, { limits: { maxFileBytes: 1024 } });
    expect(big.isError).toBe(true);
    expect(big.text).toBe('File "large.txt" is 2 KB, over the 1 KB limit');
  });
});
