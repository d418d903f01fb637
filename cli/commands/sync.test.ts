/** The `sync` CLI command on a real database, in-process: one sync, then --watch following a folder. */
import { appendFileSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "@/cli/command";
import { inProcessDbRuntime } from "@/cli/commands/db-runtime";
import { makeSyncCommand } from "@/cli/commands/sync";
import { runCommand } from "@/test/cli-helpers";
import { loadEntries } from "@/lib/db";
import { countEntries } from "@/lib/formats/count";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { useTestDatabase } from "@/test/db";

useTestDatabase();

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("sync", () => {
  it("imports a folder once, prints one line per changed file, and a missing folder is an error", async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-cli-sync-")));
    const cc = generateClaudeCodeSession({ seed: 31, turns: 4 });
    const codex = generateCodexSession({ seed: 32, turns: 4 });
    writeFileSync(path.join(dir, "a.jsonl"), cc.text);
    writeFileSync(path.join(dir, "b.jsonl"), codex.text);
    // Files an agent finished with a while ago (a fresh file's last response waits for quiet).
    const old = new Date(Date.now() - 60_000);
    for (const f of ["a.jsonl", "b.jsonl"]) utimesSync(path.join(dir, f), old, old);
    const cmd = makeSyncCommand(inProcessDbRuntime());
    const r = await runCommand(cmd, [dir]);
    expect(r.code).toBe(0);
    expect(r.out.trimEnd().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^${path.join(dir, "a.jsonl")}: imported → ${cc.sessionId} \\(\\d+ entries, \\d+ records\\)`)),
      expect.stringMatching(new RegExp(`^${path.join(dir, "b.jsonl")}: imported → ${codex.sessionId} `)),
    ]);
    expect(r.err).toMatch(/synced 2 files: 2 imported/);
    const again = await runCommand(cmd, [dir]);
    expect(again.out).toBe("");
    expect(again.err).toMatch(/synced 2 files: 0 imported, 0 appended, 0 new versions, 2 unchanged/);
    // A CliError: main prints "error: …" and exits 2.
    await expect(runCommand(cmd, [path.join(dir, "nope")])).rejects.toMatchObject({ name: "CliError", exitCode: 2, message: expect.stringMatching(/nope does not exist/) });
  });

  it("--watch follows the folder: a new file and appended lines are synced and printed", async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-cli-watch-")));
    const controller = new AbortController();
    const cmd = makeSyncCommand(inProcessDbRuntime(controller.signal));
    let out = "";
    let err = "";
    const io: CliIo = {
      out: (t) => {
        out += t;
      },
      err: (t) => {
        err += t;
      },
    };
    const running = cmd.run([dir, "--watch"], io);
    await until(() => err.includes("watching"), "the watcher to start");
    const codex = generateCodexSession({ seed: 33, turns: 6 });
    const lines = codex.text.split("\n").filter((l) => l !== "");
    const cut = lines.findIndex((l, i) => i > lines.length / 2 && l.includes('"type":"turn_context"'));
    const file = path.join(dir, "live.jsonl");
    writeFileSync(file, `${lines.slice(0, cut).join("\n")}\n`);
    await until(() => out.includes(`${file}: imported`), "the new file's line");
    appendFileSync(file, `${lines.slice(cut).join("\n")}\n`);
    await until(() => /new entr(y|ies) →/.test(out), "the appended lines' line");
    controller.abort(new Error("interrupted"));
    expect(await running).toBe(0);
    expect(countEntries(await loadEntries({ sessionId: codex.sessionId }))).toEqual(codex.expected);
  }, 40_000);
});
