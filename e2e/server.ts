/**
 * The e2e web server: the built app (`next start`) on its own port and its own, fresh database,
 * so browser tests never touch a developer's sessions. With DATABASE_URL set, a new database is
 * created on that server; otherwise on the embedded server in .data/postgres-e2e.
 * Usage: tsx --conditions=react-server e2e/server.ts PORT
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import pg from "pg";
import { ensureDatabase, startEmbeddedPostgres } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";

const port = process.argv[2] ?? "3210";
const name = `arbor_e2e_${Date.now().toString(36)}`;

let adminUrl: string;
let stop: (() => Promise<void>) | undefined;
if (process.env.DATABASE_URL) {
  adminUrl = process.env.DATABASE_URL;
} else {
  const server = await startEmbeddedPostgres(path.join(process.cwd(), ".data", "postgres-e2e"));
  adminUrl = server.adminUrl;
  if (server.owned) stop = server.stop;
}
await dropOldDatabases(adminUrl);
await ensureDatabase(adminUrl, name);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
await migrate(url.toString());

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const child = spawn(process.execPath, [nextBin, "start", "--port", port, "--hostname", "127.0.0.1"], {
  stdio: "inherit",
  env: { NEXT_TELEMETRY_DISABLED: "1", ...process.env, DATABASE_URL: url.toString(), ARBOR_E2E: "1" },
});

async function shutdown(code: number) {
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  await dropDatabase(adminUrl, name).catch(() => undefined);
  await stop?.();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));
child.on("exit", (code) => void shutdown(code ?? 0));

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
