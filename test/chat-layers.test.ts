/**
 * The chat layers say what they hold (the README's map of the code): every module of lib/chat is server code and
 * imports `server-only` first; lib/chat-protocol is browser-safe, so nothing it loads at run time
 * (its own imports, followed through the repository) is a `server-only` module, lib/chat or lib/db.
 * Type-only imports are erased, so they are not followed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const modules = (dir: string) =>
  readdirSync(path.join(root, dir))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => `${dir}/${f}`);

const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** Run-time import specifiers of a source (whole-statement `import type` / `export type` left out). */
function runtimeSpecifiers(source: string): string[] {
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm;
  for (const m of source.matchAll(re)) if (!m[2]) out.push(m[3]!);
  for (const m of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push(m[1]!);
  return out;
}

function resolve(from: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.relative(root, path.resolve(root, path.dirname(from), spec)).split(path.sep).join("/");
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (/\.tsx?$/.test(candidate) && existsSync(path.join(root, candidate))) return candidate;
  }
  return undefined;
}

/** Every repository file `file` loads at run time, with the chain that reaches it. */
function closure(file: string): Map<string, string[]> {
  const seen = new Map<string, string[]>([[file, [file]]]);
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const spec of runtimeSpecifiers(read(current))) {
      if (spec === "server-only") seen.set(`${current} (server-only)`, [...seen.get(current)!, "server-only"]);
      const next = resolve(current, spec);
      if (!next || seen.has(next)) continue;
      seen.set(next, [...seen.get(current)!, next]);
      queue.push(next);
    }
  }
  return seen;
}

describe("lib/chat is server code", () => {
  it.each(modules("lib/chat"))("%s imports server-only first", (file) => {
    expect(read(file).split("\n")[0]).toBe('import "server-only";');
  });
});

describe("lib/chat-protocol is browser-safe", () => {
  it.each(modules("lib/chat-protocol"))("%s loads no server module", (file) => {
    const bad = [...closure(file)]
      .filter(([loaded]) => loaded.endsWith("(server-only)") || loaded.startsWith("lib/chat/") || loaded.startsWith("lib/db/"))
      .map(([, chain]) => chain.join(" → "));
    expect(bad).toEqual([]);
  });
});
