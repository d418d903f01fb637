import { symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool, makeSandbox, put, SECRET, type Sandbox } from "@/test/tools-sandbox";

let sb: Sandbox;
beforeEach(async () => {
  sb = await makeSandbox();
  await put(sb.root, {
    "a.ts": "export const one = 1;\nconst Two = 2;\nexport function three() {}\n",
    "src/b.ts": "// TODO: fix\nexport const four = 4;\r\n",
    "node_modules/dep/index.js": "export const hidden = 1;\n",
    ".git/HEAD": "export ref\n",
    "img.bin": new Uint8Array([0x65, 0x78, 0x70, 0x6f, 0x72, 0x74, 0, 1]),
  });
});
afterEach(async () => {
  await sb.cleanup();
});

describe("grep", () => {
  it('prints "file:line: text", case-sensitive, skipping node_modules, .git and binary files', async () => {
    const r = await callTool(sb.root, "grep", { pattern: "^export" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      ["a.ts:1: export const one = 1;", "a.ts:3: export function three() {}", "src/b.ts:2: export const four = 4;"].join("\n"),
    );
    expect((await callTool(sb.root, "grep", { pattern: "two" })).text).toBe("No matches for /two/ in .");
    expect((await callTool(sb.root, "grep", { pattern: "T[wW]o" })).text).toBe("a.ts:2: const Two = 2;");
  });

  it("searches one file or one folder", async () => {
    expect((await callTool(sb.root, "grep", { pattern: "TODO", path: "src/b.ts" })).text).toBe("src/b.ts:1: // TODO: fix");
    expect((await callTool(sb.root, "grep", { pattern: "const", path: "src" })).text).toBe("src/b.ts:2: export const four = 4;");
    // An explicit file inside node_modules is searched.
    expect((await callTool(sb.root, "grep", { pattern: "hidden", path: "node_modules/dep/index.js" })).text).toBe(
      "node_modules/dep/index.js:1: export const hidden = 1;",
    );
  });

  it("refuses invalid regular expressions clearly", async () => {
    const r = await callTool(sb.root, "grep", { pattern: "(unclosed" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Invalid regular expression \/\(unclosed\/: .*Unterminated group/);
  });

  it("cuts long matched lines", async () => {
    await put(sb.root, { "long.txt": `needle${"x".repeat(1000)}` });
    const r = await callTool(sb.root, "grep", { pattern: "needle", path: "long.txt" }, { limits: { maxLineChars: 20 } });
    expect(r.text).toBe(`long.txt:1: needle${"x".repeat(14)}… [986 more characters]`);
  });

  it("caps matches with a note", async () => {
    await put(sb.root, { "many.txt": Array.from({ length: 50 }, (_, i) => `hit ${i}`).join("\n") });
    const r = await callTool(sb.root, "grep", { pattern: "hit", path: "many.txt" }, { limits: { maxResults: 7 } });
    expect(r.text.split("\n\n")[0]!.split("\n")).toHaveLength(7);
    expect(r.text).toContain("[Output truncated at 7 matches: showing matches 1-7. Narrow the pattern or the path.]");
    const bytes = await callTool(sb.root, "grep", { pattern: "hit", path: "many.txt" }, { limits: { maxOutputBytes: 40 } });
    expect(bytes.text).toContain("[Output truncated at 40 B: showing matches 1-");
    expect(bytes.text).toContain(" of 50.");
  });

  it("stops a catastrophic (ReDoS) pattern at the time budget instead of hanging", async () => {
    await put(sb.root, { "redos.txt": `${"a".repeat(40)}!\n` });
    const started = Date.now();
    const r = await callTool(sb.root, "grep", { pattern: "^(a+)+$", path: "redos.txt" }, { limits: { grepTimeoutMs: 300 } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.isError).toBe(true);
    expect(r.text.startsWith("Search for /^(a+)+$/ took longer than 0.3 s; simplify the pattern.")).toBe(true);
  });

  it("never follows a symlink out of the workspace", async () => {
    await symlink(sb.outside, path.join(sb.root, "outdir"));
    await symlink(path.join(sb.outside, "secret.txt"), path.join(sb.root, "secret-link"));
    const all = await callTool(sb.root, "grep", { pattern: "SECRET" });
    expect(all.text).toBe("No matches for /SECRET/ in .");
    expect(all.text).not.toContain(SECRET);
    for (const p of ["outdir", "secret-link", "outdir/secret.txt"]) {
      const r = await callTool(sb.root, "grep", { pattern: "SECRET", path: p });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/is outside the workspace/);
    }
  });
});
