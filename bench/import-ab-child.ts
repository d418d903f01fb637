/**
 * One side of an A/B of the 30 MB import across two checkouts (not part of `npm run bench`):
 * run this file from each checkout in turn, alternating, and compare the medians. It imports
 * the history bench's 30 MB pi session (37,000 entries, or `--n N`) as a copy `--imports` times
 * (after one warm-up import) with its full-text rows, as `arbor import` does, and times read +
 * JSON.parse of the file before each import; each import's wall time, this process's CPU and the
 * embedded server's CPU (bench/lib/cpu-split.ts) are printed, then the medians as one JSON line.
 *
 *   tsx --conditions=react-server bench/import-ab-child.ts [--n 37000] [--imports 3]
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { readAndParse } from "./import";
import { benchSession } from "./lib/sessions";
import { median } from "./lib/stats";
import { argOf } from "./lib/args";

const n = Number(argOf("n") ?? 37_000);
const imports = Number(argOf("imports") ?? 3);

async function main(): Promise<void> {
  const { openBenchDatabase } = await import("./lib/database");
  const { measureCpuSplit } = await import("./lib/cpu-split");
  const { buildSearchIndex, importSession } = await import("@/lib/db");
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-import-ab-"));
  const db = await openBenchDatabase();
  try {
    const pidFile = path.join(process.cwd(), ".data", "postgres-bench", "postmaster.pid");
    if (!existsSync(pidFile)) throw new Error("measures the embedded bench server's processes: unset DATABASE_URL");
    const postmaster = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
    const s = await benchSession(n, dir);
    const once = () =>
      measureCpuSplit(postmaster, async () => {
        const r = await importSession({ source: s.file, asCopy: true });
        // What `arbor import` runs after it: nothing left to build when the rows came with the import.
        await buildSearchIndex(r.sessionId);
      });
    await once();
    const wall: number[] = [];
    const node: number[] = [];
    const server: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < imports; i++) {
      const t = performance.now();
      await readAndParse(s.file);
      floor.push(performance.now() - t);
      const split = await once();
      wall.push(split.wallMs);
      node.push(split.nodeMs);
      server.push(split.serverMs);
      console.log(`import ${i + 1}: wall ${split.wallMs.toFixed(0)} ms, Node CPU ${split.nodeMs.toFixed(0)} ms, server CPU ≥ ${split.serverMs.toFixed(0)} ms; read + parse ${floor.at(-1)!.toFixed(0)} ms`);
    }
    const m = { wall: median(wall), node: median(node), server: median(server), floor: median(floor) };
    console.log(JSON.stringify({ ...m, ratio: m.wall / m.floor, wallAll: wall, serverAll: server, floorAll: floor }));
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
