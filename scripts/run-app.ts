/**
 * `npm run dev` / `npm start`: resolve the database (DATABASE_URL, or the embedded server in
 * .data/postgres), apply migrations, then run `next dev` / `next start` with DATABASE_URL set.
 * Honours PORT (default 3000) and ARBOR_HOST (default 127.0.0.1: Arbor is local by default).
 * A non-loopback ARBOR_HOST needs ARBOR_PASSWORD (lib/auth/bind.ts): it refuses to start without.
 * An embedded database it started is supervised (lib/db/embedded-supervisor.ts): if it dies, it
 * is started again on the same socket / port and Next's pools reconnect.
 * On SIGINT/SIGTERM it stops Next, then the embedded database it started.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { checkBind } from "@/lib/auth/bind";
import { prepareDatabase } from "@/lib/db/bootstrap";
import { superviseEmbedded } from "@/lib/db/embedded-supervisor";
import { env } from "@/lib/env";

const mode = process.argv[2];
if (mode !== "dev" && mode !== "start") {
  console.error("usage: run-app.ts dev|start");
  process.exit(2);
}

const host = process.env.ARBOR_HOST ?? "127.0.0.1";
const bind = checkBind({ host, password: env.ARBOR_PASSWORD });
if (!bind.ok) {
  console.error(`arbor: ${bind.message}`);
  process.exit(2);
}

const started = Date.now();
const db = await prepareDatabase().catch((error: Error) => {
  console.error(`arbor: ${error.message}`);
  process.exit(1);
});
const where = db.embedded ? `embedded PostgreSQL (${db.embedded.owned ? "started" : "already running, reused"})` : "DATABASE_URL";
const applied = db.migrations.applied.length ? `, applied ${db.migrations.applied.join(", ")}` : "";
console.log(`arbor: database ready on ${where} in ${Date.now() - started} ms${applied}`);
const supervisor = db.embedded?.owned ? superviseEmbedded({ server: db.embedded }) : undefined;

const port = process.env.PORT ?? "3000";
if (bind.auth) console.log(`arbor: sign-in is on (ARBOR_PASSWORD)${env.ARBOR_SESSION_SECRET ? "" : "; sessions end when the server restarts (set ARBOR_SESSION_SECRET to keep them)"}`);
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const child = spawn(process.execPath, [nextBin, mode, "--port", port, "--hostname", host], {
  stdio: "inherit",
  // PORT tells the app its own port: the Host check (lib/http/request-guard.ts) accepts loopback names on it only.
  env: { NEXT_TELEMETRY_DISABLED: "1", ...process.env, DATABASE_URL: db.url, PORT: port },
});

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  await (supervisor ? supervisor.stop() : db.embedded?.stop());
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));
child.on("exit", (code) => void shutdown(code ?? 0));
