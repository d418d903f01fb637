/**
 * No false positive on real sessions: the shared fixture files (/work/shared/fixtures: 21 files in
 * five formats, and the large pi session) are scanned, and imported where the importer reads the
 * format (pi, Claude Code, Codex), and Arbor reports exactly what secretlint itself reports when
 * run on the raw file's lines, independently of Arbor's pre-filter and field walk: nothing.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { lintSource } from "@secretlint/core";
import { describe, expect, it } from "vitest";
import { SECRETLINT_CONFIG } from "@/lib/secrets/scanner";
import { scanValue } from "@/lib/secrets";
import { useTestDatabase } from "@/test/db";
import { FIXTURES_DIR, FIXTURES_SKIP_REASON, hasFixtures } from "@/test/fixtures";
import { ImportError, importSession, listSecretFindings } from "..";

function parseOrText(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

useTestDatabase();

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? filesUnder(p) : [p];
    })
    .filter((p) => /\.jsonl?$/.test(p))
    .sort();
}

/** secretlint on each raw line of the file (a .json file: the whole text), no Arbor code involved. */
async function libraryCount(text: string, json: boolean): Promise<number> {
  let n = 0;
  for (const content of json ? [text] : text.split("\n")) {
    if (content === "") continue;
    const r = await lintSource({ source: { content, filePath: "line.txt", ext: ".txt", contentType: "text" }, options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true } });
    n += r.messages.length;
  }
  return n;
}

describe.skipIf(!hasFixtures)("secrets in the real fixture files", () => {
  if (!hasFixtures) console.warn(FIXTURES_SKIP_REASON);
  const files = hasFixtures ? filesUnder(FIXTURES_DIR) : [];

  it("lists the 21 format files and the large session", () => {
    expect(files.length).toBe(22);
  });

  it.each(files.map((f) => [path.relative(FIXTURES_DIR, f), f]))("%s: Arbor finds what secretlint finds on the raw file (none)", async (_name, file) => {
    const text = readFileSync(file, "utf8");
    const json = file.endsWith(".json");
    const expected = await libraryCount(text, json);
    expect(expected).toBe(0);
    // Arbor's scan of every record's strings (a line that is not JSON, as pi's merged-line file
    // has, is scanned as text).
    const records = json ? [JSON.parse(text) as unknown] : text.split("\n").filter((l) => l.trim() !== "").map(parseOrText);
    let scanned = 0;
    for (const r of records) scanned += (await scanValue(r)).length;
    expect(scanned).toBe(expected);
    if (json) return; // Gemini and opencode exports are not read by this importer.
    const imported = await importSession({ source: file, asCopy: true }).catch((error: unknown) => error);
    if (imported instanceof ImportError) {
      // A file the importer refuses (a Claude Code file that starts mid-session) stores nothing.
      expect(imported.code).toBe("not_session");
      return;
    }
    const { sessionId } = imported as Awaited<ReturnType<typeof importSession>>;
    expect((await listSecretFindings({ sessionId })).count).toBe(expected);
  });
});
