/**
 * Every real session log in ../shared/fixtures/formats/ (Claude Code 1.0.24 → 2.1.150, Codex
 * 0.140–0.142, pi v1 and v3; see its NOTICE.md) opens in Arbor with its counts intact: imported
 * through POST /api/import (what the import page and the API use) and through the CLI's `import`,
 * into the real test database, exported as pi v3, and the export's prompts, tool calls, tool
 * results, compactions, forks and model compared with counts taken from the raw file itself
 * (test/corpus-counters.ts, never Arbor's mappers). Sidechain runs a file holds inline are
 * checked as the sessions of their own they become. Skipped, saying why, without the folder.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as importPost } from "@/app/api/import/route";
import { inProcessDbRuntime } from "@/cli/commands/db-runtime";
import { makeImportCommand } from "@/cli/commands/import";
import { exportSession, getSessionMeta } from "@/lib/db";
import type { ImportDoneEvent, ImportEvent } from "@/lib/types/import-events";
import { runCommand, tempDir } from "@/test/cli-helpers";
import { CORPUS_FORMATS, countPi, type RawCounts } from "@/test/corpus-counters";
import { useTestDatabase } from "@/test/db";
import { FIXTURES_DIR } from "@/test/fixtures";

const FORMATS_DIR = path.join(FIXTURES_DIR, "formats");
const present = existsSync(FORMATS_DIR);
if (!present) console.warn(`real session logs not found at ${FORMATS_DIR} (set ARBOR_FIXTURES); skipping the formats corpus test`);

useTestDatabase();

async function viaRoute(fileName: string, body: Buffer): Promise<ImportDoneEvent> {
  const res = await importPost(
    new Request(`http://arbor.test/api/import?fileName=${encodeURIComponent(fileName)}`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array(body),
    }),
  );
  expect(res.status).toBe(200);
  const last = JSON.parse((await res.text()).trim().split("\n").at(-1)!) as ImportEvent;
  if (last.type !== "done") throw new Error(`${fileName}: ${last.type === "error" ? last.message : "no done event"}`);
  return last;
}

const cliDir = tempDir();
const importCmd = makeImportCommand(inProcessDbRuntime());

/** The CLI's import of `file` as a copy: the session ids it printed (the file's, then its sidechains'). */
async function viaCli(name: string, body: Buffer): Promise<string[]> {
  const file = path.join(cliDir.dir, name);
  writeFileSync(file, body);
  const r = await runCommand(importCmd, [file, "--as-copy"]);
  expect(r.code, r.err).toBe(0);
  return [...r.out.matchAll(/(?:→|subagent session) (\S+)/g)].map((m) => m[1]!);
}

/** What a session holds, counted on its pi v3 export with the pi counter. */
async function exported(sessionId: string): Promise<RawCounts & { sessionModel: string | null }> {
  const file = await exportSession({ sessionId });
  let text = "";
  for await (const line of file.lines()) text += line;
  const counts = countPi(text);
  const meta = await getSessionMeta({ id: sessionId });
  return { ...counts, sessionModel: meta.model };
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** The raw counts as the export must show them; the session's model is the last response's too. */
function expected(raw: RawCounts) {
  return { ...raw, sessionModel: raw.model };
}

const files = present
  ? CORPUS_FORMATS.flatMap((format) =>
      existsSync(path.join(FORMATS_DIR, format.folder))
        ? readdirSync(path.join(FORMATS_DIR, format.folder))
            .sort()
            .map((name) => ({ format, name, file: path.join(FORMATS_DIR, format.folder, name) }))
        : [],
    )
  : [];

describe.skipIf(!present)("the real session logs in fixtures/formats", () => {
  it("holds files of every format the corpus counts", () => {
    for (const format of CORPUS_FORMATS) expect(files.some((f) => f.format === format), format.folder).toBe(true);
  });

  describe.each(files)("$format.folder/$name", ({ format, name, file }) => {
    const body = readFileSync(file);
    const raw = format.count(body.toString("utf8"));

    it("imports through the import route with every count of the raw file, and its sidechains as their own sessions", async () => {
      const done = await viaRoute(name, body);
      expect(done.format).toBe(format.format);
      expect(done.skippedCount, JSON.stringify(done.skipped)).toBe(0);
      expect(await exported(done.sessionId)).toEqual(expected(raw.main));
      // A title that tells the session apart: no agent markup, and the file's own where it says it.
      expect(done.title).toBeTruthy();
      expect(done.title).not.toMatch(/<\/?[a-z][\w -]*>/i);
      if (raw.title) expect(oneLine(raw.title).startsWith(done.title!.replace(/…$/, "")), `${done.title} for ${raw.title}`).toBe(true);
      expect(done.sidechains.length).toBe(raw.sides.length);
      for (const [i, side] of done.sidechains.entries()) expect(await exported(side.sessionId), `sidechain ${i}`).toEqual(expected(raw.sides[i]!));
    });

    it("imports through the CLI with the same counts", async () => {
      const [sessionId, ...sides] = await viaCli(name, body);
      expect(await exported(sessionId!)).toEqual(expected(raw.main));
      // A copy's sidechains are the ones the first import made (their ids do not change): the CLI
      // names them ("already in Arbor"), and they hold what the file's sidechains hold.
      expect(sides).toHaveLength(raw.sides.length);
      for (const [i, side] of sides.entries()) expect(await exported(side), `sidechain ${i}`).toEqual(expected(raw.sides[i]!));
    });
  });
});

