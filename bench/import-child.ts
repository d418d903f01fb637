/**
 * Child process of the import benchmark (bench/import.ts), so peak memory is measured in a
 * process that holds nothing else (the parent keeps 100k-entry sessions in memory).
 *
 *   tsx --conditions=react-server bench/import-child.ts <mode> <file> [<database url> <warm-up file> [copy]]
 *
 * Modes (each prints ONE JSON line, the last line of stdout):
 * - `import`: imports <file> with lib/db/import/import.ts into <database url> (as a copy with `copy`),
 *   after importing the small <warm-up file> once (connection, JIT), sampling
 *   process.memoryUsage() every 20 ms, with a forced full GC every 5 batches (the memory figures).
 * - `time`:   the same import as a copy, after the same warm-up, with nothing else running (the
 *   forced GCs would cost ~0.3 s at 100k), timed; the copy is deleted afterwards.
 * - `parse`:  streams <file> through the same LineReader and JSON.parse-s every line: the floor
 *   of any import (read + parse, no database).
 * - `load`:   reads the whole file into one string and loads it with the engine (loadSession):
 *   what a non-streaming import would hold in memory.
 * - `write`:  writes a synthetic session of <database url> (= an entry count) entries to <file>.
 */
import { readFile } from "node:fs/promises";
import { collectGarbage } from "./lib/stats";

const [mode, file, third, warmFile, copy] = process.argv.slice(2);

interface Peak {
  rss: number;
  heapUsed: number;
}

/**
 * Peak RSS / heap (sampled every 20 ms: includes garbage not yet collected, so it depends on
 * when V8 collects), and `live`: the largest heap right after a forced full GC, i.e. what the
 * work really holds. The baseline is taken after a full GC too.
 */
function sampler() {
  collectGarbage();
  const base = process.memoryUsage();
  const peak: Peak = { rss: base.rss, heapUsed: base.heapUsed };
  let live = base.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  };
  const timer = setInterval(sample, 20);
  return {
    base: { rss: base.rss, heapUsed: base.heapUsed },
    peak,
    sample,
    /** Forced full GC, then the live heap. */
    live() {
      sample();
      collectGarbage();
      live = Math.max(live, process.memoryUsage().heapUsed);
      return live;
    },
    get liveHeap() {
      return live;
    },
    stop() {
      clearInterval(timer);
      sample();
    },
  };
}

async function run(): Promise<Record<string, unknown>> {
  if (!mode || !file) throw new Error("usage: import-child.ts import|time|parse|load|write <file> …");
  if (mode === "write") {
    const { writeBigFile } = await import("./lib/sessions");
    await writeBigFile(file, Number(third));
    return {};
  }
  if (mode === "parse") {
    const { LineReader } = await import("@/lib/db/import/line-reader");
    const mem = sampler();
    const t = performance.now();
    let entries = 0;
    const reader = new LineReader({ source: file, file, maxBytes: Number.POSITIVE_INFINITY, maxLineLength: 64 * 2 ** 20 });
    for await (const { text } of reader.lines()) {
      if (text === "") continue;
      JSON.parse(text);
      entries++;
    }
    const ms = performance.now() - t;
    mem.stop();
    return { ms, entries: entries - 1, base: mem.base, peak: mem.peak };
  }
  if (mode === "load") {
    const { loadSession } = await import("@/lib/session/file/load");
    const mem = sampler();
    const t = performance.now();
    const loaded = loadSession(await readFile(file, "utf8"));
    const ms = performance.now() - t;
    mem.stop();
    mem.live();
    return { ms, entries: loaded.entries.length, base: mem.base, peak: mem.peak, live: mem.liveHeap };
  }
  if (mode === "import" && third && warmFile) {
    const { useDatabase, disconnectDb, importSession } = await import("@/lib/db");
    await useDatabase(third);
    await importSession({ source: warmFile, asCopy: true });
    const mem = sampler();
    const t = performance.now();
    let batches = 0;
    // A forced GC every 5 batches (5000 entries) measures what the import really holds.
    const onProgress = () => (++batches % 5 === 0 ? void mem.live() : mem.sample());
    const r = await importSession({ source: file, onProgress, asCopy: copy === "copy" });
    const ms = performance.now() - t;
    mem.stop();
    mem.live();
    await disconnectDb();
    return { ms, entries: r.entryCount, sessionId: r.sessionId, base: mem.base, peak: mem.peak, live: mem.liveHeap };
  }
  if (mode === "time" && third && warmFile) {
    const { useDatabase, disconnectDb, importSession } = await import("@/lib/db");
    await useDatabase(third);
    await importSession({ source: warmFile, asCopy: true });
    const t = performance.now();
    const r = await importSession({ source: file, asCopy: true });
    const ms = performance.now() - t;
    await disconnectDb();
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: third });
    await client.connect();
    await client.query("DELETE FROM sessions WHERE id = $1", [r.sessionId]);
    await client.end();
    return { ms, entries: r.entryCount };
  }
  throw new Error(`unknown mode ${mode}`);
}

run().then(
  (result) => {
    process.stdout.write(`\n${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
