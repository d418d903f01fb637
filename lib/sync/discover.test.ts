/** Finding the agents' folders in a fake home (env variables moving some of them), counted from the files written here. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverAgentFolders } from "./discover";

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "arbor-home-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function put(rel: string, text: string): number {
  const file = path.join(home, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}

describe("discoverAgentFolders", () => {
  it("lists each agent folder that exists with its session files and bytes, honouring CLAUDE_CONFIG_DIR and CODEX_HOME", async () => {
    const claude = put("elsewhere/claude/projects/-src-a/one.jsonl", '{"a":1}\n') + put("elsewhere/claude/projects/-src-b/two.jsonl", '{"b":22}\n');
    put("elsewhere/claude/projects/-src-b/notes.txt", "not a session");
    put(".claude/projects/-ignored/x.jsonl", "{}\n"); // moved by CLAUDE_CONFIG_DIR: not looked at
    const codex = put("codex-home/sessions/2026/01/02/rollout.jsonl", '{"c":333}\n');
    const pi = put(".pi/agent/sessions/--src--/s.jsonl", '{"type":"session"}\n');
    const gemini = put(".gemini/tmp/abc/chats/session-1.json", "{}");
    const env = { CLAUDE_CONFIG_DIR: path.join(home, "elsewhere/claude"), CODEX_HOME: path.join(home, "codex-home") };
    const found = await discoverAgentFolders(env, home);
    expect(found.map((f) => [f.agent, f.path, f.files, f.bytes, f.syncable])).toEqual([
      ["claude-code", path.join(home, "elsewhere/claude/projects"), 2, claude, true],
      ["codex", path.join(home, "codex-home/sessions"), 1, codex, true],
      ["pi", path.join(home, ".pi/agent/sessions"), 1, pi, true],
      ["gemini", path.join(home, ".gemini/tmp"), 1, gemini, false],
    ]);
  });

  it("finds nothing in an empty home, and a file where a folder should be is not a folder", async () => {
    expect(await discoverAgentFolders({}, home)).toEqual([]);
    put(".codex/sessions", "a file, not a folder");
    expect(await discoverAgentFolders({}, home)).toEqual([]);
  });
});
