/**
 * Thousands of session files through `npm run cli -- import`: as arguments they can exceed what a
 * process may be given (npm hands the whole command line to `sh -c` as ONE string, at most
 * 128 KiB on Linux; past it the spawn fails with E2BIG and npm exits 249 without a word), so the
 * CLI takes a folder or a quoted glob and expands it itself. Real npm, real process, real
 * database; every file must arrive.
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { PROJECT_ROOT, tempDir } from "@/test/cli-helpers";
import { useTestDatabase } from "@/test/db";

const db = useTestDatabase();
const t = tempDir();

const FOLDERS = 8;
const PER_FOLDER = 30;
/** Claude Code names a project's folder after its path; deep projects make long names (at most 255 bytes each). */
const longName = (f: number, part: string) => `-home-dev-${part}-${String(f).padStart(3, "0")}-${"work-".repeat(44)}`.slice(0, 240);
const ts = (i: number) => new Date(Date.UTC(2025, 5, 1, 8, 0, i)).toISOString();

/** A two-entry pi session file with its own id. */
function sessionFile(id: string): string {
  const header = { type: "session", version: 3, id, timestamp: ts(0), cwd: "/w" };
  const user = { type: "message", id: "u1", parentId: null, timestamp: ts(1), message: { role: "user", content: `hello from ${id}`, timestamp: 1 } };
  const reply = { type: "message", id: "a1", parentId: "u1", timestamp: ts(2), message: { role: "assistant", content: [{ type: "text", text: "hi" }], timestamp: 2 } };
  return `${[header, user, reply].map((o) => JSON.stringify(o)).join("\n")}\n`;
}

function npmCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile("npm", ["run", "-s", "cli", "--", ...args], { cwd: PROJECT_ROOT, env: { ...process.env, DATABASE_URL: db.url }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

describe("npm run cli -- import with many files", () => {
  it(`imports a folder of ${FOLDERS * PER_FOLDER} files whose paths would not fit on npm's command line, and a quoted glob`, async () => {
    const root = path.join(t.dir, "many");
    const ids: string[] = [];
    let argumentBytes = 0;
    for (let f = 0; f < FOLDERS; f++) {
      const folder = path.join(root, longName(f, "projects"), longName(f, "sessions"));
      mkdirSync(folder, { recursive: true });
      for (let i = 0; i < PER_FOLDER; i++) {
        const id = `many-${f}-${i}`;
        // Named as agents name them: a UUID per session.
        const file = path.join(folder, `${id}-${String(f * PER_FOLDER + i).padStart(12, "0")}-4c7b-9a8e-2f1d3c4b5a69.jsonl`);
        writeFileSync(file, sessionFile(id));
        ids.push(id);
        argumentBytes += file.length + 1;
      }
    }
    // As arguments, these paths alone would be over the one-string limit npm's shell is given.
    expect(argumentBytes).toBeGreaterThan(128 * 1024);

    const folder = await npmCli(["import", root]);
    expect(folder.err).toBe("");
    expect(folder.code).toBe(0);
    expect(folder.out.trimEnd().split("\n")).toHaveLength(ids.length);
    const stored = await getDb().session.findMany({ where: { id: { in: ids } }, select: { id: true } });
    expect(stored.map((s) => s.id).sort()).toEqual([...ids].sort());

    // Some of them again through a quoted glob: each is already there, so each fails by name
    // (exit 2), which shows the glob reached every file it names and no other.
    const glob = await npmCli(["import", `${root}/-home-dev-projects-00[0-1]-*/**/*.jsonl`]);
    expect(glob.code).toBe(2);
    expect(glob.err.match(/is already imported/g)).toHaveLength(2 * PER_FOLDER);
  }, 300_000);
});
