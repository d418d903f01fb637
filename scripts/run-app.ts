/**
 * `npm run dev` / `npm start`: resolve the database (DATABASE_URL, or the embedded server in
 * .data/postgres), apply migrations, then run `next dev` / `next start` with DATABASE_URL set.
 * Honours PORT (default 3000) and ARBOR_HOST (default 127.0.0.1: Arbor is local by default).
 * A non-loopback ARBOR_HOST needs ARBOR_PASSWORD or ARBOR_PASSWORD_HASH (lib/auth/bind.ts): it
 * refuses to start without.
 * Started by scripts/launch.mjs, which passes ARBOR_PASSWORD on stdin (never in this process's environment).
 * Sign-in: ARBOR_PASSWORD is hashed here (scrypt, salt derived from the session secret so the
 * cookie key survives restarts) and removed from this process's environment before anything is
 * started; the database and Next get only ARBOR_PASSWORD_HASH. Next is started with
 * scripts/peer-address.cjs (the socket address for the sign-in limiter) and
 * scripts/request-abort.cjs (a client that goes away is not an uncaught error) preloaded, with PORT
 * and ARBOR_HOST set (the cookie names include the port on loopback).
 * An embedded database it started is supervised (lib/postgres/embedded-supervisor.ts): if it dies, it
 * is started again on the same socket / port and Next's pools reconnect.
 * Stopping (scripts/run-app-stop.ts): SIGINT/SIGTERM stop Next, then the embedded database it
 * started, in every state (one during the database's start-up waits for it, then stops it; a
 * second one does not wait for Next). When Next exits on its own — killed by a signal (kill -9,
 * the OOM killer; in dev mode scripts/server-exit.cjs turns its server's death into `next dev`'s
 * exit) or crashed — the launcher stops the database and exits with Next's code (128 + the
 * signal's number). It does not restart Next: a supervisor (systemd, a container's restart
 * policy) restarts the whole, and a restart loop here would hide the cause.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { checkBind, isLoopbackHost } from "@/lib/auth/bind";
import { parseTrustedProxies } from "@/lib/auth/ip";
import { formatPasswordHash, hashPassword, parsePasswordHash } from "@/lib/auth/password";
import { sessionSecret } from "@/lib/auth/secret";
import { passwordSaltFrom } from "@/lib/auth/token";
import { prepareDatabase, superviseEmbedded, upgradeMessage } from "@/lib/postgres";
import { env } from "@/lib/env";
import { OWN_LOOPBACK_NAME } from "@/lib/http/request-guard";
import { createStopper } from "./run-app-stop";

function fail(message: string): never {
  console.error(`arbor: ${message}`);
  process.exit(2);
}

const mode = process.argv[2];
if (mode !== "dev" && mode !== "start") {
  console.error("usage: run-app.ts dev|start");
  process.exit(2);
}

/** scripts/launch.mjs hands the password over on stdin, so it was never in this process's environment. */
async function passwordFromStdin(): Promise<string | undefined> {
  if (process.env.ARBOR_PASSWORD_STDIN !== "1") return undefined;
  delete process.env.ARBOR_PASSWORD_STDIN;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8") || undefined;
}

const stopper = createStopper();
process.on("SIGINT", () => stopper.stop(130));
process.on("SIGTERM", () => stopper.stop(143));

const host = env.ARBOR_HOST ?? "127.0.0.1";
const plaintext = (await passwordFromStdin()) ?? env.ARBOR_PASSWORD;
// The plaintext leaves the environment first: nothing started below (PostgreSQL, Next) inherits it.
delete process.env.ARBOR_PASSWORD;
env.ARBOR_PASSWORD = undefined;
if (plaintext !== undefined && env.ARBOR_PASSWORD_HASH !== undefined) fail("set ARBOR_PASSWORD or ARBOR_PASSWORD_HASH, not both");
const bind = checkBind({ host, password: plaintext ?? env.ARBOR_PASSWORD_HASH });
if (!bind.ok) fail(bind.message);
try {
  parseTrustedProxies(env.ARBOR_TRUSTED_PROXIES);
} catch (error) {
  fail(`ARBOR_TRUSTED_PROXIES: ${(error as Error).message}`);
}
let passwordHash = env.ARBOR_PASSWORD_HASH;
if (passwordHash !== undefined) {
  try {
    parsePasswordHash(passwordHash);
  } catch (error) {
    fail(`ARBOR_PASSWORD_HASH: ${(error as Error).message}`);
  }
}
if (bind.auth) {
  const secret = sessionSecret(); // ARBOR_SESSION_SECRET, else created once in the data folder (0600)
  if (plaintext !== undefined) passwordHash = formatPasswordHash(await hashPassword(plaintext, undefined, passwordSaltFrom(secret)));
}

const started = Date.now();
stopper.databaseStarting();
// An upgrade's migrations can rewrite tables full of sessions: say which one runs, not a silent pause.
const db = await prepareDatabase({
  onUpgrade: (name, pending) => console.log(upgradeMessage(name, pending)),
}).catch((error: Error) => {
  console.error(`arbor: ${error.message}`);
  process.exit(1);
});
const where = db.embedded ? `embedded PostgreSQL (${db.embedded.owned ? "started" : "already running, reused"})` : "DATABASE_URL";
const applied = db.migrations.applied.length ? `, applied ${db.migrations.applied.join(", ")}` : "";
console.log(`arbor: database ready on ${where} in ${Date.now() - started} ms${applied}`);
const supervisor = db.embedded?.owned ? superviseEmbedded({ server: db.embedded }) : undefined;
stopper.databaseReady(() => (supervisor ? supervisor.stop() : db.embedded?.stop()));

const port = process.env.PORT ?? "3000";
if (bind.auth) {
  const from = plaintext !== undefined ? "ARBOR_PASSWORD, passed on as its hash" : "ARBOR_PASSWORD_HASH";
  console.log(`arbor: sign-in is on (${from}); cookie key from ${env.ARBOR_SESSION_SECRET ? "ARBOR_SESSION_SECRET" : "the data folder's session-secret file"}`);
}
if (isLoopbackHost(host)) {
  // Browsers resolve *.localhost to this machine and keep cookies apart by host name (not port).
  console.log(`arbor: open http://${OWN_LOOPBACK_NAME}:${port} (its own name: other services on localhost / 127.0.0.1 never get its cookies; http://127.0.0.1:${port} works too)`);
}
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const preloads = ["peer-address.cjs", "request-abort.cjs", "server-exit.cjs"].map((f) => `--require ${JSON.stringify(path.join(import.meta.dirname, f))}`);
const childEnv: NodeJS.ProcessEnv = {
  NEXT_TELEMETRY_DISABLED: "1",
  ...process.env,
  DATABASE_URL: db.url,
  // PORT tells the app its own port: the Host check (lib/http/request-guard.ts) accepts loopback
  // names on it only, and the cookie names include it.
  PORT: port,
  ARBOR_HOST: host,
  NODE_OPTIONS: [process.env.NODE_OPTIONS, ...preloads].filter(Boolean).join(" "),
};
delete childEnv.ARBOR_PASSWORD;
if (passwordHash !== undefined) childEnv.ARBOR_PASSWORD_HASH = passwordHash;
stopper.nextStarted(() => spawn(process.execPath, [nextBin, mode, "--port", port, "--hostname", host], { stdio: "inherit", env: childEnv }));
