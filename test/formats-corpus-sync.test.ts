/**
 * The real session logs of ../shared/fixtures/formats/ through folder sync (docs/formats.md
 * "Sync"), the way an agent writes them: the first half of each file is synced, then the rest is
 * appended and synced again. The session must end with every count of the raw file
 * (test/corpus-counters.ts), reached by appending, never by importing it again. Skipped, saying
 * why, without the folder.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exportSession, getSessionMeta } from "@/lib/db";
import { syncFolders } from "@/lib/sync/sync-folders";
import { CORPUS_FORMATS, countPi } from "@/test/corpus-counters";
import { useTestDatabase } from "@/test/db";
import { FIXTURES_DIR } from "@/test/fixtures";

const FORMATS_DIR = path.join(FIXTURES_DIR, "formats");
const present = existsSync(FORMATS_DIR);
if (!present) console.warn(`real session logs not found at ${FORMATS_DIR} (set ARBOR_FIXTURES); skipping the formats sync test`);

useTestDatabase();

const dir = mkdtempSync(path.join(tmpdir(), "arbor-corpus-sync-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = present
  ? CORPUS_FORMATS.flatMap((format) =>
      existsSync(path.join(FORMATS_DIR, format.folder))
        ? readdirSync(path.join(FORMATS_DIR, format.folder))
            .filter((name) => name.endsWith(".jsonl"))
            .sort()
            .map((name) => ({ format, name, file: path.join(FORMATS_DIR, format.folder, name) }))
        : [],
    )
  : [];

describe.skipIf(!present)("real session logs synced while they grow", () => {
  it.each(files)("$format.folder/$name: half synced, then the rest appended, ends with the raw file's counts", async ({ format, name, file }) => {
    const text = readFileSync(file, "utf8");
    const raw = format.count(text);
    const lines = text.split("\n");
    const half = Math.floor(lines.length / 2);
    const target = path.join(dir, format.folder, name);
    const folder = path.dirname(target);
    mkdirSync(folder, { recursive: true });
    writeFileSync(target, `${lines.slice(0, half).join("\n")}\n`);

    // Just written: a response the half ends in may still be growing, and is held for later.
    const first = await syncFolders([folder], { only: new Set([target]) });
    const imported = first.files[0]!.outcome;
    expect(imported.kind, JSON.stringify(imported)).toBe("imported");
    const sessionId = (imported as { sessionId: string }).sessionId;

    appendFileSync(target, lines.slice(half).join("\n"));
    // The agent is done: everything is taken.
    const second = await syncFolders([folder], { settleMs: 0, only: new Set([target]) });
    const outcome = second.files[0]!.outcome;
    const v1 = format.format === "pi" && !/"version":\s*[23]/.test(lines[0]!);
    // A pi version 1 file has no entry ids to append by: imported again, saying why.
    if (v1) expect(outcome).toMatchObject({ kind: "rewritten", why: "its entries have no ids (a pi version 1 file)" });
    else expect(outcome.kind, JSON.stringify(outcome)).toBe("appended");
    const final = v1 ? (outcome as { sessionId: string }).sessionId : sessionId;

    const exported = await exportSession({ sessionId: final });
    let out = "";
    for await (const line of exported.lines()) out += line;
    // A last line without its newline waits for the next sync: the raw counts are of the whole lines.
    const whole = text.endsWith("\n") ? text : text.slice(0, text.lastIndexOf("\n") + 1);
    const expected = format.count(whole).main;
    expect(countPi(out)).toEqual(expected);
    expect((await getSessionMeta({ id: final })).model).toBe(expected.model);
    if (text.endsWith("\n")) expect(expected).toEqual(raw.main);
  });
});
