import "server-only";
/**
 * The agent folders that exist on this machine, for the first start (docs/ui.md "Pages", `/`):
 * where each agent keeps its session files, honouring the variables that move them, and how many
 * session files and bytes each holds. Only directory entries and sizes are read (readdir, stat),
 * never a file's contents: nothing is read before the user consents to a sync.
 *
 * Locations (docs/formats.md names the formats):
 * - Claude Code: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects` (`*.jsonl`);
 * - Codex CLI: `$CODEX_HOME/sessions`, else `~/.codex/sessions` (`*.jsonl`);
 * - pi: `$PI_CODING_AGENT_DIR/sessions`, else `~/.pi/agent/sessions` (`*.jsonl`);
 * - oh-my-pi: `~/.omp/agent/sessions` (`*.jsonl`);
 * - Gemini CLI: `$GEMINI_DIR/tmp`, else `~/.gemini/tmp` (`*.json`);
 * - opencode: `$XDG_DATA_HOME/opencode/storage`, else `~/.local/share/opencode/storage` (`*.json`).
 * Folder sync (lib/sync) follows `*.jsonl` files: Gemini and opencode folders are listed with
 * `syncable: false` (import their files through the page or the CLI).
 */
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface AgentFolder {
  agent: "claude-code" | "codex" | "pi" | "omp" | "gemini" | "opencode";
  label: string;
  path: string;
  files: number;
  bytes: number;
  syncable: boolean;
}

/** The variables read (process.env, or a test's own). */
export type AgentEnv = Readonly<Record<string, string | undefined>>;

interface Place {
  agent: AgentFolder["agent"];
  label: string;
  path: string;
  ext: ".jsonl" | ".json";
}

/** The places to look, from the environment (`env`, `home`: tests pass a fake home). */
export function agentPlaces(env: AgentEnv = process.env, home: string = os.homedir()): Place[] {
  const under = (variable: string | undefined, fallback: string, ...rest: string[]) => path.join(variable && variable !== "" ? variable : path.join(home, fallback), ...rest);
  return [
    { agent: "claude-code", label: "Claude Code", path: under(env.CLAUDE_CONFIG_DIR, ".claude", "projects"), ext: ".jsonl" },
    { agent: "codex", label: "Codex CLI", path: under(env.CODEX_HOME, ".codex", "sessions"), ext: ".jsonl" },
    { agent: "pi", label: "pi", path: under(env.PI_CODING_AGENT_DIR, path.join(".pi", "agent"), "sessions"), ext: ".jsonl" },
    { agent: "omp", label: "oh-my-pi", path: path.join(home, ".omp", "agent", "sessions"), ext: ".jsonl" },
    { agent: "gemini", label: "Gemini CLI", path: under(env.GEMINI_DIR, ".gemini", "tmp"), ext: ".json" },
    { agent: "opencode", label: "opencode", path: under(env.XDG_DATA_HOME, path.join(".local", "share"), "opencode", "storage"), ext: ".json" },
  ];
}

/** Files ending in `ext` below `folder` and their bytes; unreadable subfolders and vanished files are skipped. */
async function tally(folder: string, ext: string): Promise<{ files: number; bytes: number }> {
  let entries: Dirent[];
  try {
    entries = await readdir(/*turbopackIgnore: true*/ folder, { withFileTypes: true, recursive: true });
  } catch {
    return { files: 0, bytes: 0 };
  }
  let files = 0;
  let bytes = 0;
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith(ext)) continue;
    const st = await stat(/*turbopackIgnore: true*/ path.join(e.parentPath, e.name)).catch(() => null);
    if (!st) continue;
    files += 1;
    bytes += st.size;
  }
  return { files, bytes };
}

/** The agent folders that exist (a folder, not a file), with their counts. */
export async function discoverAgentFolders(env: AgentEnv = process.env, home: string = os.homedir()): Promise<AgentFolder[]> {
  const found: AgentFolder[] = [];
  for (const place of agentPlaces(env, home)) {
    const st = await stat(/*turbopackIgnore: true*/ place.path).catch(() => null);
    if (!st?.isDirectory()) continue;
    const { files, bytes } = await tally(place.path, place.ext);
    found.push({ agent: place.agent, label: place.label, path: place.path, files, bytes, syncable: place.ext === ".jsonl" });
  }
  return found;
}
