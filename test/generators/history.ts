/**
 * A seeded synthetic home folder of agent sessions, for the history benchmark
 * (`npm run bench -- --history`, bench/history.ts): Claude Code, Codex CLI, pi, Gemini CLI and
 * opencode files in the folders each agent uses (lib/sync/discover.ts agentPlaces), in about
 * the proportions of a heavy user's machine, written to disk. Unlike the other generators this
 * one writes files: the same options give the same bytes.
 *
 * Sizes: log-normal around a median of ~80 kB (clamped to 5 kB – 40 MB; a few files of tens
 * of MB, one of 40 MB), so 2,000 files come to about 1 GB. Each format's generator is asked for
 * as many turns as reach the wanted size (bytes per turn measured once per format). Shapes:
 * Claude Code with branches, compactions and subagent files; Codex with compactions and forks
 * of earlier rollouts; pi with compactions, branches and labels; Gemini CLI recordings (one
 * JSON document each, kept ≤ 4 MB as the CLI rewrites them whole); opencode storage folders
 * (one file per object, so kept ≤ 256 kB).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { agentPlaces } from "@/lib/sync/discover";
import { Rng } from "@/lib/random";
import { generateClaudeCodeSession } from "./claude-code";
import { generateCodexSession } from "./codex";
import { generateGeminiSession } from "./gemini";
import { generateOpencodeSession } from "./opencode";
import { generateSessionJsonl } from "./session";

export type HistoryAgent = "claude-code" | "codex" | "pi" | "gemini" | "opencode";

/** Share of the files per agent. */
export const HISTORY_MIX: Readonly<Record<HistoryAgent, number>> = { "claude-code": 0.45, codex: 0.25, pi: 0.15, gemini: 0.08, opencode: 0.07 };

export interface HistoryOptions {
  seed: number;
  /** Session files (2,000 for the benchmark's ~1 GB). */
  files: number;
  /** The fake home folder to write into. */
  home: string;
}

export interface HistoryFile {
  agent: HistoryAgent;
  /** The session file (opencode: its storage `session/…json` file). */
  file: string;
  /** Every file written for it (subagents, opencode's objects included). */
  paths: string[];
  bytes: number;
}

export interface GeneratedHistory {
  /** The agent folders written, by agent. */
  folders: Record<HistoryAgent, string>;
  files: HistoryFile[];
  bytes: number;
}

const KB = 1024;
const MB = 1024 * KB;
const MIN_BYTES = 5 * KB;
const MAX_BYTES = 40 * MB;
const CAP: Partial<Record<HistoryAgent, number>> = { gemini: 4 * MB, opencode: 256 * KB };

/** A standard normal draw (Box–Muller). */
function normal(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** A wanted file size: log-normal, median ~80 kB, σ 1.9 (mean ~500 kB), clamped. */
function wantedBytes(rng: Rng, agent: HistoryAgent): number {
  const size = Math.round(80 * KB * Math.exp(1.9 * normal(rng)));
  return Math.min(CAP[agent] ?? MAX_BYTES, Math.max(MIN_BYTES, size));
}

interface Written {
  /** Path relative to the agent folder → contents; the first is the session file. */
  files: [string, string][];
}

/** One session of `agent` of about `units` turns (pi: entries). */
function generate(agent: HistoryAgent, seed: number, units: number, rng: Rng, earlier: string[]): Written {
  const project = `-home-dev-project${seed % 23}`;
  switch (agent) {
    case "claude-code": {
      const big = units > 40;
      const g = generateClaudeCodeSession({
        seed,
        turns: units,
        ...(big ? { branches: 2, compactions: 1 } : {}),
        ...(rng.chance(0.2) ? { subagents: 1 } : {}),
        modern: rng.chance(0.5),
      });
      const files: [string, string][] = [[`${project}/${g.sessionId}.jsonl`, g.text]];
      for (const s of g.subagents ?? []) files.push([`${project}/${s.relativePath}`, s.text]);
      return { files };
    }
    case "codex": {
      const forkedFrom = earlier.length > 0 && rng.chance(0.1) ? rng.pick(earlier) : undefined;
      const g = generateCodexSession({ seed, turns: units, ...(units > 40 ? { compactions: 1 } : {}), ...(forkedFrom ? { forkedFrom } : {}) });
      earlier.push(g.sessionId);
      const day = String(1 + (seed % 28)).padStart(2, "0");
      return { files: [[`2025/09/${day}/rollout-2025-09-${day}T10-00-00-${g.sessionId}.jsonl`, g.text]] };
    }
    case "pi": {
      const text = generateSessionJsonl({ seed, entries: units, compactions: units > 200, branches: Math.floor(units / 2000), labels: Math.floor(units / 1000) });
      const id = (JSON.parse(text.slice(0, text.indexOf("\n"))) as { id: string }).id;
      return { files: [[`--home-dev-project${seed % 23}--/2025-01-15T09-00-00-000Z_${id}.jsonl`, text]] };
    }
    case "gemini": {
      const g = generateGeminiSession({ seed, turns: units });
      return { files: [[`${(seed * 7919).toString(16).padStart(12, "0")}/chats/session-2026-01-10T20-00-${g.sessionId.slice(0, 8)}.json`, g.text]] };
    }
    case "opencode": {
      const g = generateOpencodeSession({ seed, turns: units, ...(units > 20 ? { compactions: 1 } : {}) });
      const entries = Object.entries(g.storage);
      // The session's own file first (lib/sync/opencode-storage.ts reads the rest from it).
      entries.sort(([a], [b]) => Number(b.startsWith("session/")) - Number(a.startsWith("session/")));
      return { files: entries };
    }
  }
}

function sizeOf(w: Written): number {
  let n = 0;
  for (const [, text] of w.files) n += Buffer.byteLength(text);
  return n;
}

/** Bytes per turn (pi: per entry) of each agent's generator, measured on a mid-size session. */
function perUnit(agent: HistoryAgent): number {
  const units = agent === "pi" ? 400 : 40;
  const w = generate(agent, 1, units, Rng.seeded(1), []);
  return sizeOf(w) / units;
}

/** Writes the home folder; returns what it holds. */
export async function generateHistory(opts: HistoryOptions): Promise<GeneratedHistory> {
  const places = agentPlaces({}, opts.home);
  const folderOf = (agent: HistoryAgent) => places.find((p) => p.agent === agent)!.path;
  const folders = {} as Record<HistoryAgent, string>;
  const unitBytes = {} as Record<HistoryAgent, number>;
  for (const agent of Object.keys(HISTORY_MIX) as HistoryAgent[]) {
    folders[agent] = folderOf(agent);
    unitBytes[agent] = perUnit(agent);
    await mkdir(folders[agent], { recursive: true });
  }
  const rng = Rng.seeded(opts.seed);
  const agents: HistoryAgent[] = [];
  for (const [agent, share] of Object.entries(HISTORY_MIX) as [HistoryAgent, number][]) {
    for (let i = 0; i < Math.round(share * opts.files); i++) agents.push(agent);
  }
  const earlier: string[] = [];
  const files: HistoryFile[] = [];
  let bytes = 0;
  for (const [i, agent] of agents.entries()) {
    // The largest session of the history: a 40 MB Claude Code file.
    const wanted = i === 0 ? MAX_BYTES : wantedBytes(rng, agent);
    const units = Math.max(1, Math.round(wanted / unitBytes[agent]));
    const w = generate(agent, opts.seed * 100_000 + i, units, rng, earlier);
    const paths: string[] = [];
    let size = 0;
    for (const [rel, text] of w.files) {
      const file = path.join(folders[agent], rel);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      paths.push(file);
      size += Buffer.byteLength(text);
    }
    files.push({ agent, file: paths[0]!, paths, bytes: size });
    bytes += size;
  }
  return { folders, files, bytes };
}
