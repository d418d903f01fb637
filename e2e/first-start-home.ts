/**
 * The fake home of the first-start app (e2e/server.ts starts it with HOME and the agents'
 * variables pointing here; e2e/first-start.spec.ts drives it): Claude Code's folder moved by
 * CLAUDE_CONFIG_DIR, pi's by PI_CODING_AGENT_DIR, Codex CLI's in its default place. Seeded, so the
 * server writes and the spec re-derives the same files. The Claude Code session is written up to
 * its second turn; the spec appends the rest while its page is open.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { generateSessionJsonl } from "@/test/generators/session";
import { E2E_FAKE_HOME } from "./ports";

export const FAKE_HOME_ENV = {
  HOME: E2E_FAKE_HOME,
  CLAUDE_CONFIG_DIR: path.join(E2E_FAKE_HOME, "claude-config"),
  PI_CODING_AGENT_DIR: path.join(E2E_FAKE_HOME, "pi-agent"),
};

export const CLAUDE_DIR = path.join(FAKE_HOME_ENV.CLAUDE_CONFIG_DIR, "projects");
export const PI_DIR = path.join(FAKE_HOME_ENV.PI_CODING_AGENT_DIR, "sessions");
export const CODEX_DIR = path.join(E2E_FAKE_HOME, ".codex", "sessions");

/** The Claude Code session: the lines written at start and the ones the spec appends. */
export function claudeSession() {
  const gen = generateClaudeCodeSession({ seed: 8801, turns: 3 });
  const lines = gen.text.split("\n").filter((l) => l !== "" && !l.startsWith('{"type":"summary"'));
  const cut = lines.findIndex((l) => /"type":"user","message":\{"role":"user","content":"Turn 2:/.test(l));
  return { sessionId: gen.sessionId, file: path.join(CLAUDE_DIR, "-src-demo", `${gen.sessionId}.jsonl`), head: lines.slice(0, cut), tail: lines.slice(cut) };
}

/** The pi sessions: big enough that their sync shows its progress for a moment. */
export function piSessions(): { file: string; text: string }[] {
  return [0, 1, 2].map((i) => ({ file: path.join(PI_DIR, "--src-demo--", `2026-01-0${i + 1}_${i}.jsonl`), text: generateSessionJsonl({ seed: 8810 + i, entries: 3_000 }) }));
}

export function writeFakeHome(): void {
  rmSync(E2E_FAKE_HOME, { recursive: true, force: true });
  const old = new Date(Date.now() - 10 * 60_000);
  const put = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    utimesSync(file, old, old);
  };
  const cc = claudeSession();
  put(cc.file, `${cc.head.join("\n")}\n`);
  const other = generateClaudeCodeSession({ seed: 8802, turns: 2 });
  put(path.join(CLAUDE_DIR, "-src-other", `${other.sessionId}.jsonl`), other.text);
  for (const p of piSessions()) put(p.file, p.text);
  put(path.join(CODEX_DIR, "2026", "01", "01", "rollout-2026-01-01T10-00-00-a.jsonl"), generateCodexSession({ seed: 8820, turns: 2 }).text);
}
