/**
 * A/B of an import's full-text rows (not part of `npm run bench`): the 30 MB pi session of the
 * history bench (37,000 entries, or `--n N`) imported as a copy, then `buildSearchIndex` (what
 * `arbor import` runs), alternately with the rows built in the import's transaction (today,
 * lib/db/import/search-rows.ts) and with `searchRows: false` (the rows left to buildSearchIndex
 * after the commit: the path before). Each round also times read + JSON.parse of the file.
 *
 *   tsx --conditions=react-server bench/import-search-ab.ts [--n 37000] [--rounds 3]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { readAndParse } from "./import";
import { benchSession } from "./lib/sessions";
import { formatMs, median, timed } from "./lib/stats";
import { argOf } from "./lib/args";

const n = Number(argOf("n") ?? 37_000);
const rounds = Number(argOf("rounds") ?? 3);

async function main(): Promise<void> {
  const { openBenchDatabase } = await import("./lib/database");
  const { buildSearchIndex, importSession } = await import("@/lib/db");
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-search-ab-"));
  const db = await openBenchDatabase();
  try {
    const s = await benchSession(n, dir);
    console.log(`${n} entries, ${(s.bytes / 2 ** 20).toFixed(1)} MB`);
    const one = async (searchRows: boolean) => {
      let importMs = 0;
      const [ms] = await timed(async () => {
        const [i, r] = await timed(() => importSession({ source: s.file, asCopy: true, searchRows }));
        importMs = i;
        await buildSearchIndex(r.sessionId);
      });
      return { ms, importMs };
    };
    await one(true); // warm-up
    const results: Record<"inline" | "after" | "floor", number[]> = { inline: [], after: [], floor: [] };
    const parts: Record<"inline" | "after", string[]> = { inline: [], after: [] };
    for (let i = 0; i < rounds; i++) {
      results.floor.push((await timed(() => readAndParse(s.file)))[0]);
      for (const variant of i % 2 === 0 ? (["after", "inline"] as const) : (["inline", "after"] as const)) {
        const r = await one(variant === "inline");
        results[variant].push(r.ms);
        parts[variant].push(`${formatMs(r.ms)} (import ${formatMs(r.importMs)})`);
      }
    }
    const floor = median(results.floor);
    console.log(`read + JSON.parse: ${formatMs(floor)} (${results.floor.map(formatMs).join(" / ")})`);
    for (const v of ["after", "inline"] as const) {
      console.log(`${v === "after" ? "rows after the commit (before)" : "rows in the import (after)   "}: median ${formatMs(median(results[v]))}, ${(median(results[v]) / floor).toFixed(2)}×; ${parts[v].join(", ")}`);
    }
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
