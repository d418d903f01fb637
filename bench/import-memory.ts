/**
 * Import benchmark (not part of `npm test`):
 *   npx tsx --conditions=react-server bench/import-memory.ts [--mb 100] [--batch 1000] [--file F]
 *   (`--write F N` only writes a synthetic file of N entries; `--file F` imports F instead of
 *   generating one, e.g. to run the import alone under NODE_OPTIONS=--max-old-space-size=128.)
 *
 * 1. A child process writes a synthetic session of about `--mb` MB (test/generators/session.ts,
 *    with branches, labels and compactions) to a temp folder, so generating it does not count
 *    against this process's memory.
 * 2. This process imports it (lib/db/import/import.ts) while sampling process.memoryUsage() every
 *    20 ms, and prints peak RSS / heap / external against the baseline: with streaming they
 *    follow the batch size, not the file size.
 * 3. It times imports of the shared 1 MB fixture (../shared/fixtures/large-session.jsonl),
 *    first (cold) and warm runs.
 * Runs in its own throw-away database `arbor_bench_<pid>` (embedded server, or the server of
 * DATABASE_URL), dropped at the end.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const MB = 1024 * 1024;
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
};

async function writeSynthetic(file: string, entries: number): Promise<void> {
  const { generateSession } = await import("@/test/generators/session");
  const session = generateSession({ seed: 42, entries, branches: 50, labels: 40, compactions: true });
  const out = createWriteStream(file);
  const write = (line: string) =>
    out.write(`${line}\n`) ? Promise.resolve() : new Promise<void>((resolve) => out.once("drain", () => resolve()));
  await write(JSON.stringify(session.header));
  for (const entry of session.entries) await write(JSON.stringify(entry));
  await new Promise((resolve, reject) => out.end(() => resolve(undefined)).on("error", reject));
}

function runChild(file: string, entries: number): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    // The generator holds the whole session in memory; a heap limit meant for the import
    // (NODE_OPTIONS=--max-old-space-size=…) must not apply to it.
    const { NODE_OPTIONS: _limit, ...env } = process.env;
    const child = spawn(process.execPath, [...process.execArgv, self, "--write", file, String(entries)], { stdio: "inherit", env });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`generator exited with ${code}`))));
  });
}

function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const fmt = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

async function main(): Promise<void> {
  if (args[0] === "--write") {
    await writeSynthetic(args[1]!, Number(args[2]));
    return;
  }
  const targetMb = option("mb", 100);
  const batchSize = option("batch", 1000);
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-bench-"));
  const given = args.indexOf("--file") >= 0 ? args[args.indexOf("--file") + 1] : undefined;
  const file = given ?? path.join(dir, "synthetic.jsonl");
  if (!given) {
    console.log(`writing a ~${targetMb} MB synthetic session…`);
    await runChild(file, Math.ceil((targetMb * MB) / 880));
  }
  const size = (await stat(file)).size;

  const { env } = await import("@/lib/env");
  const { startEmbeddedPostgres, ensureDatabase, migrate, prepareAppDatabase } = await import("@/lib/postgres");
  const { useDatabase, disconnectDb, importSession, loadPath, loadEntries, exportSession } = await import("@/lib/db");
  const { LARGE_SESSION } = await import("@/test/fixtures");

  const server = env.DATABASE_URL ? undefined : await startEmbeddedPostgres();
  const adminUrl = env.DATABASE_URL ? withDatabaseName(env.DATABASE_URL, "postgres") : server!.adminUrl;
  const name = `arbor_bench_${process.pid}`;
  // Embedded: the app role, as the app connects (lib/postgres/app-role.ts); DATABASE_URL: as given.
  let url = withDatabaseName(adminUrl, name);
  if (server) url = (await prepareAppDatabase(server, name)).url;
  else {
    await ensureDatabase(adminUrl, name);
    await migrate(url);
  }
  await useDatabase(url);
  try {
    // First import in this process (cold: connection, JIT); also warms up before measuring memory.
    const coldStart = performance.now();
    const cold = existsSync(LARGE_SESSION) ? await importSession({ source: LARGE_SESSION, asCopy: true }) : undefined;
    const coldMs = performance.now() - coldStart;
    const base = process.memoryUsage();
    const peak = { rss: base.rss, heapUsed: base.heapUsed, external: base.external, arrayBuffers: base.arrayBuffers };
    const sample = () => {
      const m = process.memoryUsage();
      peak.rss = Math.max(peak.rss, m.rss);
      peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
      peak.external = Math.max(peak.external, m.external);
      peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
    };
    const timer = setInterval(sample, 20);
    const started = performance.now();
    const r = await importSession({ source: file, batchSize, onProgress: sample });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(timer);
    sample();
    console.log(`synthetic session: ${fmt(size)}, ${r.entryCount} entries, batch ${batchSize}: ${seconds.toFixed(1)} s (${Math.round(r.entryCount / seconds)} entries/s, ${(size / MB / seconds).toFixed(1)} MB/s)`);
    console.log(`  baseline: rss ${fmt(base.rss)}, heap ${fmt(base.heapUsed)}, external ${fmt(base.external)}`);
    console.log(`  peak:     rss ${fmt(peak.rss)}, heap ${fmt(peak.heapUsed)}, external ${fmt(peak.external)}, arrayBuffers ${fmt(peak.arrayBuffers)}`);
    console.log(`  process maxRSS so far (getrusage): ${fmt(process.resourceUsage().maxRSS * 1024)}`);
    console.log(`  growth:   rss +${fmt(peak.rss - base.rss)}, heap +${fmt(peak.heapUsed - base.heapUsed)} for a ${fmt(size)} file`);

    const timed = async <T>(label: string, fn: () => Promise<T>, summary: (v: T) => string) => {
      const t = performance.now();
      const v = await fn();
      console.log(`  ${label}: ${(performance.now() - t).toFixed(0)} ms (${summary(v)})`);
    };
    await timed("loadPath (recursive CTE)", () => loadPath({ sessionId: r.sessionId }), (p) => `${p.length} entries on the path`);
    await timed("loadEntries", () => loadEntries({ sessionId: r.sessionId }), (e) => `${e.length} entries`);
    await timed(
      "export (streamed)",
      async () => {
        let bytes = 0;
        for await (const line of (await exportSession({ sessionId: r.sessionId })).lines()) bytes += line.length;
        return bytes;
      },
      (bytes) => `${fmt(bytes)} of JSONL`,
    );

    if (existsSync(LARGE_SESSION)) {
      const runs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await importSession({ source: LARGE_SESSION, asCopy: true });
        runs.push(performance.now() - t);
      }
      const sorted = [...runs].sort((a, b) => a - b);
      console.log(`fixture cold (first import in the process): ${coldMs.toFixed(0)} ms, ${cold?.entryCount} entries`);
      console.log(`fixture ${path.basename(LARGE_SESSION)} (${fmt((await stat(LARGE_SESSION)).size)}): ${runs.map((ms) => ms.toFixed(0)).join(", ")} ms (median ${sorted[2]!.toFixed(0)} ms)`);
    }
  } finally {
    await disconnectDb();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    if (server?.owned) await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
