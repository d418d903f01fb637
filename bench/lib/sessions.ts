/**
 * The sessions every benchmark uses: test/generators/session.ts with one seed, shaped like the
 * shared real fixture (turns of user / assistant / tool calls and results, thinking-level and
 * model changes, no compactions: the fixture has none, and without them every engine pass
 * walks the whole branch, the worst case) plus one side branch and one label per 1000 entries.
 * Each size is generated once per run and written to a temp JSONL file for the import and DB
 * benchmarks.
 */
import { createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { generateSession } from "@/test/generators/session";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";

export const SEED = 20_261_202;

export interface BenchSession {
  n: number;
  header: SessionHeader;
  entries: SessionEntry[];
  /** JSON.stringify of each entry (the JSONL lines without the header). */
  lines: string[];
  /** JSONL file (header + lines). */
  file: string;
  bytes: number;
}

const cache = new Map<number, BenchSession>();

export const label = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

async function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(file);
  for (const line of lines) {
    if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => {
    out.on("error", reject);
    out.end(() => resolve());
  });
}

export async function benchSession(n: number, dir: string): Promise<BenchSession> {
  const hit = cache.get(n);
  if (hit) return hit;
  const extra = Math.max(1, Math.floor(n / 1000));
  const { header, entries } = generateSession({ seed: SEED + n, entries: n, branches: extra, labels: extra });
  const lines = entries.map((e) => JSON.stringify(e));
  const file = path.join(dir, `session-${label(n)}.jsonl`);
  await writeLines(file, [JSON.stringify(header), ...lines]);
  const session = { n, header, entries, lines, file, bytes: (await stat(file)).size };
  cache.set(n, session);
  return session;
}

/**
 * The `--big` file (`entries` entries, ~880 bytes each), shaped like import-memory.ts's: branches,
 * labels and compactions. Called in a child process (import-child.ts `write`), so the
 * generator's memory never counts against a measuring process.
 */
export async function writeBigFile(file: string, entries: number): Promise<void> {
  const { header, entries: list } = generateSession({ seed: SEED, entries, branches: 50, labels: 40, compactions: true });
  await writeLines(file, (function* () {
    yield JSON.stringify(header);
    for (const e of list) yield JSON.stringify(e);
  })());
}
