/**
 * A third copy of the built app with sign-in on, for e2e/auth.spec.ts (which starts and stops
 * it): the real launcher (`node scripts/launch.mjs start`, as `npm start` runs it: it hashes
 * ARBOR_PASSWORD, preloads the socket-address hook and passes PORT) on E2E base + 5, with its own
 * fresh database (on DATABASE_URL's server, else the embedded e2e server that e2e/server.ts runs). Prints
 * "auth-app ready <url>" once it answers; on SIGTERM/SIGINT it stops Next and drops the database.
 * Usage: tsx --conditions=react-server e2e/auth-app.ts
 */
import { spawn } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { ensureDatabase, migrate, prepareAppDatabase, startEmbeddedPostgres } from "@/lib/postgres";
import { AUTH_APP_PASSWORD, AUTH_APP_PORT } from "./auth-ports";

const server = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(path.join(process.cwd(), ".data", "postgres-e2e"));
const adminUrl = process.env.DATABASE_URL ?? server!.adminUrl;
// The arbor_e2e_ prefix lets e2e/server.ts drop it if this process is ever killed before cleaning up.
const db = `arbor_e2e_auth_${Date.now().toString(36)}`;
// The embedded server: given to its app role, which the app connects as (lib/postgres/app-role.ts).
const url = server ? new URL((await prepareAppDatabase(server, db)).url) : new URL(adminUrl);
if (!server) {
  await ensureDatabase(adminUrl, db);
  url.pathname = `/${db}`;
  await migrate(url.toString());
}

const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ARBOR_E2E: "1" };
for (const k of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ARBOR_OPENAI_BASE_URL", "ARBOR_OPENAI_API_KEY", "ARBOR_OPENAI_MODELS", "ARBOR_OPENAI_CONTEXT_WINDOW", "ARBOR_SESSION_SECRET"]) delete env[k];
for (const k of ["ARBOR_PASSWORD_HASH", "ARBOR_TRUSTED_PROXIES", "NODE_OPTIONS"]) delete env[k];
const child = spawn(process.execPath, ["scripts/launch.mjs", "start"], {
  stdio: ["ignore", "inherit", "inherit"],
  env: {
    ...env,
    ARBOR_PASSWORD: AUTH_APP_PASSWORD,
    PORT: String(AUTH_APP_PORT),
    ARBOR_HOST: "127.0.0.1",
    DATABASE_URL: url.toString(),
    ARBOR_DATA_DIR: path.join(process.cwd(), ".data", "e2e-auth"),
  },
});

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  const c = new pg.Client({ connectionString: adminUrl });
  await c
    .connect()
    .then(() => c.query(`drop database if exists ${pg.escapeIdentifier(db)} with (force)`))
    .catch(() => undefined)
    .finally(() => c.end().catch(() => undefined));
  if (server?.owned) await server.stop();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));
child.on("exit", (code) => void shutdown(code ?? 1));

const base = `http://127.0.0.1:${AUTH_APP_PORT}`;
for (let i = 0; ; i++) {
  if (await fetch(`${base}/login`).then((r) => r.ok, () => false)) break;
  if (i >= 300) {
    console.error(`auth-app: the app did not start on ${base}`);
    await shutdown(1);
  }
  await new Promise((r) => setTimeout(r, 200));
}
console.log(`auth-app ready ${base}`);
