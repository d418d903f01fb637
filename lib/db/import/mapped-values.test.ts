/**
 * A mapped line's `value` (lib/db/import/formats.ts) stands for its text's parse, which the
 * importer no longer does: for every line of the real Claude Code and Codex logs and of our
 * generated ones, the value is strictly what JSON.parse gives for the text (no undefined member,
 * no NaN, nothing JSON would drop or change), read at the time the importer reads it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { FIXTURES_DIR } from "@/test/fixtures";
import { detectLines } from "./formats";
import type { Line } from "./line-reader";

async function* linesOf(text: string): AsyncGenerator<Line> {
  const parts = text.split("\n");
  if (parts.at(-1) === "") parts.pop();
  for (const [i, part] of parts.entries()) yield { text: part, number: i + 1 };
}

/** Lines read as the importer reads them; returns how many carried a value. */
async function checkValues(text: string, name: string): Promise<number> {
  const detected = await detectLines(linesOf(text), name);
  let carried = 0;
  for await (const line of detected.lines) {
    if (!line.value) continue;
    carried += 1;
    expect(line.value, `${name}:${line.number}`).toStrictEqual(JSON.parse(line.text));
  }
  return carried;
}

const FORMATS_DIR = path.join(FIXTURES_DIR, "formats");
const present = existsSync(FORMATS_DIR);
if (!present) console.warn(`real session logs not found at ${FORMATS_DIR} (set ARBOR_FIXTURES); skipping the real files' mapped values`);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
    .map((e) => path.join(e.parentPath, e.name));
}

describe("mapped lines' values", () => {
  it("are their text's parse in generated Claude Code and Codex files", async () => {
    const cc = generateClaudeCodeSession({ seed: 5, turns: 12, branches: 2, compactions: 1, sidechain: true, cutLastLine: true });
    const codex = generateCodexSession({ seed: 6, turns: 10, compactions: 1, cutLastLine: true });
    expect(await checkValues(cc.text, "cc.jsonl")).toBeGreaterThan(20);
    expect(await checkValues(codex.text, "codex.jsonl")).toBeGreaterThan(20);
  });

  it.skipIf(!present)("are their text's parse in every real Claude Code and Codex log", async () => {
    const files = ["claude", "codex"].flatMap((f) => filesUnder(path.join(FORMATS_DIR, f)));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      expect(await checkValues(readFileSync(file, "utf8"), path.basename(file)), file).toBeGreaterThan(0);
    }
  });
});
