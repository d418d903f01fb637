/**
 * Deterministic filler text for the synthetic session generators (session.ts and the format generators).
 * Pure: no network, disk or database access, and no global state: every value comes from a
 * `Rng` seeded by the caller, so the same seed always yields the same session.
 */

import type { Rng } from "@/lib/random";

const WORDS = [
  "session", "tree", "branch", "entry", "parser", "config", "loader", "render", "cache", "token",
  "summary", "compaction", "handler", "state", "query", "schema", "route", "model", "prompt", "index",
  "buffer", "stream", "label", "filter", "search", "layout", "node", "edge", "theme", "selector",
];
const VERBS = ["fix", "refactor", "rename", "test", "document", "port", "simplify", "split", "review", "update"];
const DIRS = ["src", "src/lib", "src/ui", "src/core", "packages/agent/src", "packages/tui/src", "test", "docs"];
const EXTS = [".ts", ".ts", ".ts", ".tsx", ".md", ".json"];

/** A fixed set of plausible file paths for one session. */
export function makePaths(rng: Rng, count = 40): string[] {
  const paths = new Set<string>();
  while (paths.size < count) {
    paths.add(`${rng.pick(DIRS)}/${rng.pick(WORDS)}-${rng.pick(WORDS)}${rng.pick(EXTS)}`);
  }
  return [...paths];
}

export function sentence(rng: Rng, minWords = 6, maxWords = 18): string {
  const n = rng.int(minWords, maxWords);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(WORDS));
  const first = words[0] ?? "ok";
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(" ")}.`;
}

export function paragraph(rng: Rng, sentences: number): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng));
  return out.join(" ");
}

export function userRequest(rng: Rng, path: string): string {
  const ask = `${rng.pick(VERBS)} the ${rng.pick(WORDS)} ${rng.pick(WORDS)} in ${path}`;
  return rng.chance(0.5) ? `Please ${ask}.` : `${ask}, then ${rng.pick(VERBS)} the tests.\n\n${sentence(rng)}`;
}

export function bashCommand(rng: Rng, path: string): string {
  switch (rng.int(0, 6)) {
    case 0:
      return "npm test";
    case 1:
      return "git status";
    case 2:
      return `rg -n "${rng.pick(WORDS)}" ${rng.pick(DIRS)}`;
    case 3:
      return `ls -la ${rng.pick(DIRS)}`;
    case 4:
      return "npx tsc --noEmit";
    case 5:
      return `git diff --stat -- ${path}`;
    default:
      return `cat ${path} | head -n ${rng.int(20, 200)}`;
  }
}

/**
 * A pool of code-like text from which tool outputs are sliced. Slicing a shared pool keeps
 * generation of 100k-entry sessions fast (no per-result string building).
 */
export function makeTextPool(rng: Rng, chars = 65_536): string {
  const lines: string[] = [];
  let size = 0;
  while (size < chars) {
    const indent = "\t".repeat(rng.int(0, 3));
    const line = `${indent}const ${rng.pick(WORDS)}${rng.int(0, 99)} = ${rng.pick(WORDS)}(${rng.pick(WORDS)});`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

/** Tool output length, skewed like real sessions: mostly short, a few very large. */
export function outputLength(rng: Rng, toolName: string): number {
  const r = rng.next();
  if (toolName === "read") {
    if (r < 0.6) return rng.int(300, 2_500);
    return r < 0.95 ? rng.int(2_500, 8_000) : rng.int(8_000, 40_000);
  }
  if (r < 0.7) return rng.int(20, 200);
  return r < 0.97 ? rng.int(200, 1_500) : rng.int(1_500, 6_000);
}

/** `length` characters of pool text starting at a random offset (wrapping when needed). */
export function poolSlice(rng: Rng, pool: string, length: number): string {
  if (length <= 0) return "";
  let out = "";
  while (out.length < length) {
    const start = rng.int(0, pool.length - 1);
    out += pool.slice(start, start + (length - out.length));
  }
  return out;
}
