/**
 * The e2e servers, one process: the fake OpenAI-compatible model server, and the built app
 * (`next start`, with the launcher's scripts/request-abort.cjs preloaded) three times — with
 * the fake server configured; the same again as a second process on the SAME database and data
 * folder (port `appB`: several processes on one DATABASE_URL); and with no model at all
 * (offline) — each on its own port, the offline app and the main pair each on a fresh database,
 * so browser tests never touch a developer's sessions.
 * With DATABASE_URL set the databases are created on that server; otherwise on the embedded
 * server in .data/postgres-e2e (each database given to and migrated as its app role, which the
 * apps then connect as: lib/postgres/app-role.ts). Playwright waits for the main app's URL, which
 * starts last.
 * Usage: tsx --conditions=react-server e2e/server.ts
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import pg from "pg";
import { type EmbeddedServer, ensureDatabase, migrate, prepareAppDatabase, startEmbeddedPostgres } from "@/lib/postgres";
import { startFakeLlmServer } from "@/test/fake-llm-server";
import { appLogPath, E2E_ALLOWED_HOST, E2E_PORTS, E2E_SYNC_ROOT, FAKE_CONTEXT_WINDOW, FAKE_MODELS } from "./ports";

const run = Date.now().toString(36);
let adminUrl: string;
let stopDb: (() => Promise<void>) | undefined;
let embedded: EmbeddedServer | undefined;
if (process.env.DATABASE_URL) {
  adminUrl = process.env.DATABASE_URL;
} else {
  const server = await startEmbeddedPostgres(path.join(process.cwd(), ".data", "postgres-e2e"));
  embedded = server;
  adminUrl = server.adminUrl;
  if (server.owned) stopDb = server.stop;
}
await dropOldDatabases(adminUrl);

const fake = await startFakeLlmServer({ port: E2E_PORTS.fakeLlm, host: "127.0.0.1", models: FAKE_MODELS });

/** Environment without any model configuration, whatever the developer's shell has. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ARBOR_E2E: "1" };
  for (const k of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ARBOR_OPENAI_BASE_URL", "ARBOR_OPENAI_API_KEY", "ARBOR_OPENAI_MODELS", "ARBOR_OPENAI_CONTEXT_WINDOW"]) delete env[k];
  return env;
}

const children: ChildProcess[] = [];
const databases: string[] = [];
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
/** The launcher's preload that keeps a client going away out of the error log (scripts/run-app.ts). */
const requestAbort = `--require ${JSON.stringify(path.join(process.cwd(), "scripts", "request-abort.cjs"))}`;

/** A fresh, migrated database of this run; returns the URL the apps connect with. */
async function createDatabase(name: string): Promise<string> {
  const db = `arbor_e2e_${name}_${run}`;
  databases.push(db);
  return embedded ? (await prepareAppDatabase(embedded, db)).url : await createAndMigrate(adminUrl, db);
}

/** `next start` on `port` with `databaseUrl` (default: a fresh one); the data folder is named by `dataName`. */
async function startApp(name: string, port: number, extra: Record<string, string>, opts: { databaseUrl?: string; dataName?: string } = {}): Promise<void> {
  const databaseUrl = opts.databaseUrl ?? (await createDatabase(name));
  const dataDir = path.join(process.cwd(), ".data", `e2e-${opts.dataName ?? name}`);
  mkdirSync(dataDir, { recursive: true });
  // Providers set in the Settings page by an earlier run must not configure this one.
  rmSync(path.join(dataDir, "providers.json"), { force: true });
  const child = spawn(process.execPath, [nextBin, "start", "--port", String(port), "--hostname", "127.0.0.1"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...baseEnv(),
      ...extra,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, requestAbort].filter(Boolean).join(" "),
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      ARBOR_DATA_DIR: dataDir,
    },
  });
  // The app's output goes to this process's and to a log file the specs may read (appLogPath).
  const log = createWriteStream(appLogPath(opts.dataName ?? name, name), { flags: "w" });
  child.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    log.write(chunk);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    process.stderr.write(chunk);
    log.write(chunk);
  });
  children.push(child);
  child.on("exit", (code) => void shutdown(code ?? 0));
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`e2e: the ${name} app did not start on port ${port}`);
}

mkdirSync(E2E_SYNC_ROOT, { recursive: true });
const withFakeModel = {
  ARBOR_ALLOWED_ROOTS: E2E_SYNC_ROOT,
  ARBOR_OPENAI_BASE_URL: fake.url,
  ARBOR_OPENAI_MODELS: FAKE_MODELS.join(","),
  ARBOR_OPENAI_CONTEXT_WINDOW: String(FAKE_CONTEXT_WINDOW),
};
// The second process shares the main app's database and data folder (its session workspaces).
const mainDatabase = await createDatabase("main");
await Promise.all([
  // The offline app also answers to one listed name, so e2e/security.spec.ts can check ARBOR_ALLOWED_HOSTS.
  startApp("offline", E2E_PORTS.offlineApp, { ARBOR_ALLOWED_HOSTS: E2E_ALLOWED_HOST }),
  startApp("main-b", E2E_PORTS.appB, withFakeModel, { databaseUrl: mainDatabase, dataName: "main" }),
]);
await startApp("main", E2E_PORTS.app, withFakeModel, { databaseUrl: mainDatabase });

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
  await fake.close().catch(() => undefined);
  for (const db of databases) await dropDatabase(adminUrl, db).catch(() => undefined);
  await stopDb?.();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));

/** On DATABASE_URL's server: the database is used as the operator's role, as is. */
async function createAndMigrate(admin: string, db: string): Promise<string> {
  await ensureDatabase(admin, db);
  const url = new URL(admin);
  url.pathname = `/${db}`;
  await migrate(url.toString());
  return url.toString();
}

async function withAdmin(admin: string, fn: (c: pg.Client) => Promise<void>) {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}
async function dropDatabase(admin: string, db: string) {
  await withAdmin(admin, async (c) => {
    await c.query(`drop database if exists ${pg.escapeIdentifier(db)} with (force)`);
  });
}
/** Leftovers of runs that were killed before they could clean up. */
async function dropOldDatabases(admin: string) {
  await withAdmin(admin, async (c) => {
    const old = await c.query<{ datname: string }>(`select datname from pg_database where datname like 'arbor_e2e_%'`);
    for (const r of old.rows) await c.query(`drop database if exists ${pg.escapeIdentifier(r.datname)} with (force)`).catch(() => undefined);
  });
}
