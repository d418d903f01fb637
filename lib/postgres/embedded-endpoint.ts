import "server-only";
/**
 * Where an embedded PostgreSQL server listens and whether one already runs on a cluster folder
 * (the contract is embedded.ts's): a Unix socket inside the cluster folder when its path fits,
 * else 127.0.0.1 on a free port; a running server is found through PostgreSQL's own
 * `postmaster.pid`.
 */
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/** With a socket the port only names the socket file; any fixed number will do. */
export const SOCKET_PORT = 5432;
/** sun_path is 108 bytes including the terminating NUL (Linux; PostgreSQL checks the same). */
const MAX_SOCKET_PATH = 107;

export interface Endpoint {
  port: number;
  /** The socket's folder; undefined: TCP on 127.0.0.1. */
  socketDir?: string;
}

export function buildUrl(ep: Endpoint, user: string, password: string, database: string): string {
  const auth = `${encodeURIComponent(user)}:${encodeURIComponent(password)}`;
  if (!ep.socketDir) return `postgresql://${auth}@127.0.0.1:${ep.port}/${database}`;
  return `postgresql://${auth}@localhost:${ep.port}/${database}?host=${encodeURIComponent(ep.socketDir)}`;
}

/** The socket folder for `dir`, or undefined when its socket path would be too long or unsafe to list. */
export function socketDirFor(dir: string, port: number): string | undefined {
  const socket = path.join(dir, `.s.PGSQL.${port}`);
  // unix_socket_directories is a comma-separated list: a comma or quote in the path cannot be passed.
  if (/[,"']/.test(dir) || Buffer.byteLength(socket) > MAX_SOCKET_PATH) return undefined;
  return dir;
}

export async function freePort(): Promise<number> {
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

/** Reads PostgreSQL's lock file: line 1 the postmaster pid, line 4 the port, line 5 the socket folder. */
export function runningServer(dir: string): ({ pid: number } & Endpoint) | undefined {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  // A stale file (the postmaster was killed) names a dead pid: PostgreSQL replaces it on start.
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !isAlive(pid)) return undefined;
  const socketDir = lines[4]?.trim() || undefined;
  return { pid, port, ...(socketDir ? { socketDir } : {}) };
}
