/**
 * Finding the agents' folders in a fake home (docs/ui.md "Pages", `/`): every agent's layout, the
 * variables that move them pointing elsewhere, decoys where the variables say not to look; counts
 * from the files written here. Nothing is read before consent (a file that is no session at all
 * is counted by its name and size alone, and nothing reaches the database); after consent, one
 * sync of every folder imports each agent's session.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { generateGeminiSession } from "@/test/generators/gemini";
import { generateOpencodeSession } from "@/test/generators/opencode";
import { generateSessionJsonl } from "@/test/generators/session";
import { useTestDatabase } from "@/test/db";
import { discoverAgentFolders } from "./discover";
import { syncFolders } from "./sync-folders";

useTestDatabase();

let home: string;
beforeEach(() => {
  home = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-home-")));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function put(rel: string, text: string): number {
  const file = path.join(home, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}

const sessions = async () => getDb().session.count();

describe("discoverAgentFolders", () => {
  it("finds every agent's folder where its variables put it, counts sessions and bytes without reading them, and syncs them after consent", async () => {
    const cc = generateClaudeCodeSession({ seed: 601, turns: 2 });
    const cx = generateCodexSession({ seed: 602, turns: 2 });
    const piText = generateSessionJsonl({ seed: 603, entries: 6 });
    const ompText = generateSessionJsonl({ seed: 604, entries: 4 });
    const gm = generateGeminiSession({ seed: 605, turns: 2 });
    const oc = generateOpencodeSession({ seed: 606, turns: 2 });
    const env = {
      CLAUDE_CONFIG_DIR: path.join(home, "elsewhere/claude"),
      CODEX_HOME: path.join(home, "codex-home"),
      PI_CODING_AGENT_DIR: path.join(home, "pi-dir"),
      GEMINI_CLI_HOME: path.join(home, "gemini-home"),
      XDG_DATA_HOME: path.join(home, "xdg"),
    };
    const claude = put(`elsewhere/claude/projects/-src-a/${cc.sessionId}.jsonl`, cc.text) + put("elsewhere/claude/projects/-src-b/garbage.jsonl", "not JSON at all\n");
    put("elsewhere/claude/projects/-src-b/notes.txt", "not a session");
    put(".claude/projects/-ignored/x.jsonl", "{}\n"); // moved by CLAUDE_CONFIG_DIR: not looked at
    const codex = put("codex-home/sessions/2026/01/02/rollout-a.jsonl", cx.text);
    const pi = put("pi-dir/sessions/--src--/s.jsonl", piText);
    put(".pi/agent/sessions/--ignored--/t.jsonl", "{}\n");
    const omp = put(".omp/agent/sessions/--src--/o.jsonl", ompText);
    const gemini = put("gemini-home/.gemini/tmp/abc123/chats/session-2026-01-02T10-00-abc.json", gm.text);
    const geminiOther = put("gemini-home/.gemini/tmp/abc123/logs.json", "[]"); // no session, no bytes
    expect(geminiOther).toBeGreaterThan(0);
    let opencodeBytes = 0;
    for (const [rel, text] of Object.entries(oc.storage)) opencodeBytes += put(path.join("xdg/opencode/storage", rel), text);
    const opencodeSessions = Object.keys(oc.storage).filter((rel) => rel.split("/").length === 3 && rel.startsWith("session/")).length;
    expect(opencodeSessions).toBe(1);

    const before = await sessions();
    const found = await discoverAgentFolders(env, home);
    expect(found.map((f) => [f.agent, f.path, f.files, f.bytes])).toEqual([
      ["claude-code", path.join(home, "elsewhere/claude/projects"), 2, claude],
      ["codex", path.join(home, "codex-home/sessions"), 1, codex],
      ["pi", path.join(home, "pi-dir/sessions"), 1, pi],
      ["omp", path.join(home, ".omp/agent/sessions"), 1, omp],
      ["gemini", path.join(home, "gemini-home/.gemini/tmp"), 1, gemini],
      ["opencode", path.join(home, "xdg/opencode/storage"), opencodeSessions, opencodeBytes],
    ]);
    expect(found.every((f) => f.syncable)).toBe(true);
    // Listing read no file: nothing reached the database, and the garbage file raised nothing.
    expect(await sessions()).toBe(before);

    // Consent given: one sync of every folder imports every agent's session; the garbage file is its own error.
    const folders = found.map((f) => f.path);
    const r = await syncFolders(folders, { settleMs: 0, roots: folders });
    expect(r.counts).toMatchObject({ imported: 6, failed: 1 });
    expect(r.files.find((f) => f.outcome.kind === "failed")?.file).toBe(path.join(home, "elsewhere/claude/projects/-src-b/garbage.jsonl"));
    const ids = [cc.sessionId, cx.sessionId, gm.sessionId, oc.sessionId];
    expect(await getDb().session.count({ where: { id: { in: ids } } })).toBe(ids.length);
    expect(await sessions()).toBe(before + 6);
  });

  it("finds nothing in an empty home, and a file where a folder should be is not a folder", async () => {
    expect(await discoverAgentFolders({}, home)).toEqual([]);
    put(".codex/sessions", "a file, not a folder");
    expect(await discoverAgentFolders({}, home)).toEqual([]);
  });
});
