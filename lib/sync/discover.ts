import "server-only";
/**
 * The agent folders that exist on this machine, for the first start (docs/ui.md "Pages", `/`):
 * where each agent keeps its session files, honouring the variables that move them, and how many
 * session files and bytes each holds. Only directory entries and sizes are read (readdir, stat),
 * never a file's contents: nothing is read before the user consents to a sync.
 *
 * Locations (docs/formats.md names the formats), and what is counted there:
 * - Claude Code: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects` (`*.jsonl`, subagents' included);
 * - Codex CLI: `$CODEX_HOME/sessions`, else `~/.codex/sessions` (`*.jsonl`);
 * - pi: `$PI_CODING_AGENT_DIR/sessions`, else `~/.pi/agent/sessions` (`*.jsonl`);
 * - oh-my-pi: `~/.omp/agent/sessions` (`*.jsonl`);
 * - Gemini CLI: `$GEMINI_CLI_HOME/.gemini/tmp` (the variable moves Gemini CLI's whole home), else
 *   `~/.gemini/tmp` (its chat recordings `session-*.json`, or `.jsonl` from 0.39 on; logs and other files are not sessions);
 * - opencode: `$XDG_DATA_HOME/opencode/storage`, else `~/.local/share/opencode/storage` (a
 *   session is `session/<project>/<id>.json`; its bytes are every `.json` file of the storage, as
 *   its messages and parts are files of their own).
 * Folder sync (lib/sync) reads every one of these layouts, so every folder found is syncable.
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

/** Which files below a place are sessions ("session") and which only add to its bytes ("bytes"). */
type Counted = (rel: string, name: string) => "session" | "bytes" | null;

interface Place {
  agent: AgentFolder["agent"];
  label: string;
  path: string;
  counted: Counted;
}

const jsonl: Counted = (_rel, name) => (name.endsWith(".jsonl") ? "session" : null);
const gemini: Counted = (_rel, name) => (/^session-.*\.jsonl?$/.test(name) ? "session" : null);
/** `session/<project>/<id>.json` is a session; the storage's other `.json` files are its messages and parts. */
const opencode: Counted = (rel, name) => {
  if (!name.endsWith(".json")) return null;
  const parts = rel.split(path.sep);
  return parts.length === 3 && parts[0] === "session" ? "session" : "bytes";
};

/** The places to look, from the environment (`env`, `home`: tests pass a fake home). */
export function agentPlaces(env: AgentEnv = process.env, home: string = os.homedir()): Place[] {
  const under = (variable: string | undefined, fallback: string, ...rest: string[]) => path.join(variable && variable !== "" ? variable : path.join(home, fallback), ...rest);
  return [
    { agent: "claude-code", label: "Claude Code", path: under(env.CLAUDE_CONFIG_DIR, ".claude", "projects"), counted: jsonl },
    { agent: "codex", label: "Codex CLI", path: under(env.CODEX_HOME, ".codex", "sessions"), counted: jsonl },
    { agent: "pi", label: "pi", path: under(env.PI_CODING_AGENT_DIR, path.join(".pi", "agent"), "sessions"), counted: jsonl },
    { agent: "omp", label: "oh-my-pi", path: path.join(home, ".omp", "agent", "sessions"), counted: jsonl },
    { agent: "gemini", label: "Gemini CLI", path: path.join(env.GEMINI_CLI_HOME || home, ".gemini", "tmp"), counted: gemini },
    { agent: "opencode", label: "opencode", path: under(env.XDG_DATA_HOME, path.join(".local", "share"), "opencode", "storage"), counted: opencode },
  ];
}

/** Session files below `folder` and the bytes of the files they are read from; unreadable subfolders and vanished files are skipped. */
async function tally(folder: string, counted: Counted): Promise<{ files: number; bytes: number }> {
  let entries: Dirent[];
  try {
    entries = await readdir(/*turbopackIgnore: true*/ folder, { withFileTypes: true, recursive: true });
  } catch {
    return { files: 0, bytes: 0 };
  }
  let files = 0;
  let bytes = 0;
  for (const e of entries) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    const what = counted(path.relative(folder, file), e.name);
    if (what === null) continue;
    const st = await stat(/*turbopackIgnore: true*/ file).catch(() => null);
    if (!st) continue;
    if (what === "session") files += 1;
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
    const { files, bytes } = await tally(place.path, place.counted);
    found.push({ agent: place.agent, label: place.label, path: place.path, files, bytes, syncable: true });
  }
  return found;
}
