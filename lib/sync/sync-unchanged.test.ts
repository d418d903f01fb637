/**
 * A sync with nothing changed (docs/formats.md "Sync"): it opens no file, writes nothing and asks
 * the database once per folder however many files there are. Proved by scrambling every file's
 * bytes in place with its size and mtime kept: any read would fail or import a new version.
 * What did change is still found from stat alone: a same-size rewrite (new mtime), an opencode
 * part rewritten in place, and an opencode part replaced by another file of the same size and
 * mtime (its name differs: the session's digest of names, sizes and mtimes).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { searchIndexIdle } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { useTestDatabase } from "@/test/db";
import { countStatements } from "@/test/statements";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { generateGeminiSession } from "@/test/generators/gemini";
import { generateOpencodeSession } from "@/test/generators/opencode";
import { generateSessionJsonl } from "@/test/generators/session";
import { syncFolders } from "./sync-folders";

useTestDatabase();

const ALL = { settleMs: 0 };
/** Every file's mtime, whole seconds an hour ago: set again exactly after a file is scrambled. */
const WHEN = Math.floor(Date.now() / 1000) - 3600;

let dir = "";
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-sync-unchanged-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const opencode = generateOpencodeSession({ seed: 61, turns: 5, subagent: true });
const STORAGE = "opencode/storage";

function write(rel: string, text: string): void {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, WHEN, WHEN);
}

/** One session of every format: Claude Code, Codex, pi, Gemini CLI (JSON and JSONL), opencode storage (a session and its child). */
function writeEveryFormat(): void {
  write("claude/-home-p/a.jsonl", generateClaudeCodeSession({ seed: 1, turns: 6 }).text);
  write("codex/2026/01/rollout-b.jsonl", generateCodexSession({ seed: 2, turns: 5 }).text);
  write("pi/--home-p--/c.jsonl", generateSessionJsonl({ seed: 3, entries: 30 }));
  write("gemini/tmp/h/chats/session-d.json", generateGeminiSession({ seed: 4, turns: 4 }).text);
  write("gemini/tmp/h/chats/session-e.jsonl", generateGeminiSession({ seed: 5, turns: 4, jsonl: true }).text);
  for (const [rel, text] of Object.entries({ ...opencode.storage, ...opencode.child!.storage })) write(path.join(STORAGE, rel), text);
}

function everyFile(): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** The file's bytes replaced by as many `x`s, its mtime set back: what no read could take for the file. */
function scramble(file: string): void {
  writeFileSync(file, "x".repeat(statSync(file).size));
  utimesSync(file, WHEN, WHEN);
}

/** The rows of this test's folder (the file's tests share a database). */
async function trackedRows() {
  return getDb().syncFile.findMany({ where: { path: { startsWith: `${dir}/` } }, orderBy: { path: "asc" } });
}

async function liveSessions(): Promise<number> {
  return getDb().session.count({ where: { deletedAt: null } });
}

describe("a sync with nothing changed", () => {
  it("opens no file, writes nothing and asks the database once per folder", async () => {
    writeEveryFormat();
    const first = await syncFolders([dir], ALL);
    expect(first.counts.imported).toBe(7);
    expect(first.counts.failed).toBe(0);
    // The full-text rows the imports scheduled are built in the background: not this sync's statements.
    await searchIndexIdle();
    const rows = await trackedRows();
    const sessions = await liveSessions();

    for (const file of everyFile()) scramble(file);
    const { result: again, statements } = await countStatements(() => syncFolders([dir], ALL));
    expect(again.files.map((f) => f.outcome.kind)).toEqual(first.files.map(() => "unchanged"));
    expect(statements).toBe(1);
    expect(await trackedRows()).toEqual(rows);
    expect(await liveSessions()).toBe(sessions);

    // The scrambled bytes are noticed as soon as a file's mtime moves: the test above would see a read.
    const claude = path.join(dir, "claude/-home-p/a.jsonl");
    utimesSync(claude, WHEN + 1, WHEN + 1);
    const part = everyFile().find((f) => f.includes(`${path.sep}part${path.sep}`))!;
    utimesSync(part, WHEN + 1, WHEN + 1);
    const touched = await syncFolders([dir], ALL);
    const outcome = (file: string) => touched.files.find((f) => f.file === file)?.outcome.kind;
    expect(outcome(claude)).not.toBe("unchanged");
    expect(outcome(path.join(dir, STORAGE, `session/${opencode.projectId}/${opencode.sessionId}.json`)) ?? outcome(path.join(dir, STORAGE, `session/${opencode.child!.projectId}/${opencode.child!.sessionId}.json`))).not.toBe("unchanged");
  });
});

describe("an opencode row saved before the digest existed", () => {
  it("is read once (unchanged: the same document), then holds the digest and is not read again", async () => {
    for (const [rel, text] of Object.entries(opencode.storage)) write(path.join(STORAGE, rel), text);
    await syncFolders([dir], ALL);
    await getDb().syncFile.updateMany({ where: { path: { startsWith: `${dir}/` } }, data: { statDigest: null } });
    const part = everyFile().find((f) => f.includes(`${path.sep}part${path.sep}`))!;
    scramble(part);
    // Read: the scrambled part is no JSON, so the session's document cannot be made.
    expect((await syncFolders([dir], ALL)).files[0]!.outcome.kind).not.toBe("unchanged");
    write(path.relative(dir, part), opencode.storage[path.relative(path.join(dir, STORAGE), part)]!);
    expect((await syncFolders([dir], ALL)).files[0]!.outcome.kind).toBe("unchanged");
    expect((await trackedRows())[0]!.statDigest).toMatch(/^[0-9a-f]{40}$/);
    scramble(part);
    expect((await syncFolders([dir], ALL)).files[0]!.outcome.kind).toBe("unchanged");
  });
});

describe("what changed is found from stat alone", () => {
  const sessionFile = () => path.join(dir, STORAGE, `session/${opencode.projectId}/${opencode.sessionId}.json`);
  /** A text part of the parent session, by its path. */
  const textPart = () => {
    const rel = Object.keys(opencode.storage).find((r) => r.startsWith("part/") && (JSON.parse(opencode.storage[r]!) as { type?: string }).type === "text")!;
    return path.join(dir, STORAGE, rel);
  };
  /** The same bytes with one letter of the part's text changed: same size. */
  const edited = (file: string) => {
    const part = JSON.parse(readFileSync(file, "utf8")) as { text: string };
    const text = part.text.replace(/[a-z]/, (c) => (c === "a" ? "b" : "a"));
    expect(text).not.toBe(part.text);
    return readFileSync(file, "utf8").replace(JSON.stringify(part.text), JSON.stringify(text));
  };

  it("a file rewritten in place with the same size and a new mtime is read again", async () => {
    write("pi/c.jsonl", generateSessionJsonl({ seed: 3, entries: 30 }));
    await syncFolders([dir], ALL);
    const file = path.join(dir, "pi/c.jsonl");
    const text = readFileSync(file, "utf8");
    const changed = text.replace(/"text":"(\w)/, (_m, c: string) => `"text":"${c === "a" ? "b" : "a"}`);
    expect(changed).not.toBe(text);
    expect(changed.length).toBe(text.length);
    writeFileSync(file, changed);
    utimesSync(file, WHEN + 5, WHEN + 5);
    const again = await syncFolders([dir], ALL);
    expect(again.files[0]!.outcome).toMatchObject({ kind: "rewritten", version: 2 });
  });

  it("an opencode part rewritten in place (same size, new mtime) is read again", async () => {
    for (const [rel, text] of Object.entries(opencode.storage)) write(path.join(STORAGE, rel), text);
    await syncFolders([dir], ALL);
    const part = textPart();
    const text = edited(part);
    expect(text.length).toBe(statSync(part).size);
    writeFileSync(part, text);
    utimesSync(part, WHEN + 5, WHEN + 5);
    const again = await syncFolders([dir], ALL);
    expect(again.files.find((f) => f.file === sessionFile())!.outcome).toMatchObject({ kind: "rewritten", version: 2 });
  });

  it("an opencode part replaced by another file of the same size and mtime is read again (its name is in the digest)", async () => {
    for (const [rel, text] of Object.entries(opencode.storage)) write(path.join(STORAGE, rel), text);
    await syncFolders([dir], ALL);
    const part = textPart();
    // A copy restored with its times kept, under a name that sorts in the same place: total size
    // and newest mtime are as before, so only the names tell.
    writeFileSync(part, edited(part));
    const renamed = part.replace(/\.json$/, "0.json");
    renameSync(part, renamed);
    utimesSync(renamed, WHEN, WHEN);
    const again = await syncFolders([dir], ALL);
    expect(again.files.find((f) => f.file === sessionFile())!.outcome).toMatchObject({ kind: "rewritten", version: 2 });
  });
});
