/**
 * The launcher (`npm run dev` / `npm start`: scripts/launch.mjs → scripts/run-app.ts) with real
 * processes: its own embedded PostgreSQL in a temporary data folder and `next dev` on a free
 * port. When Next dies by a signal (`kill -9`, as the OOM killer does) the launcher must not keep
 * running with the app down: it stops the database and exits with 128 + the signal's number, so
 * whoever runs it (a terminal, systemd, a container) sees it. SIGTERM / SIGINT stop everything in
 * every state, the database's start-up included.
 * Linux only (it reads /proc to find the processes); skipped elsewhere.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { chmod } from "node:fs/promises";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive, descendants } from "@/test/process-tree";

let data = "";
beforeAll(async () => {
  data = mkdtempSync(path.join(tmpdir(), "arbor-launcher-"));
  await chmod(data, 0o755); // the embedded server may run as another user (root → postgres)
});
afterAll(() => {
  if (data) rmSync(data, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Launcher {
  child: ChildProcess;
  port: number;
  output: () => string;
  /** Resolves with the exit code (or 128 + signal) once the launcher has exited. */
  exited: Promise<number>;
}

async function launch(): Promise<Launcher> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), ARBOR_HOST: "127.0.0.1", ARBOR_DATA_DIR: data, NEXT_TELEMETRY_DISABLED: "1" };
  for (const k of ["DATABASE_URL", "ARBOR_PASSWORD", "ARBOR_PASSWORD_HASH", "NODE_OPTIONS", "VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID", "NODE_ENV"]) delete env[k];
  const child = spawn(process.execPath, ["scripts/launch.mjs", "dev"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number>((resolve) => child.once("exit", (code, signal) => resolve(code ?? 128 + (signal === "SIGKILL" ? 9 : 15))));
  return { child, port, output: () => out, exited };
}

const postmasterFile = () => path.join(data, "postgres", "postmaster.pid");
function postmasterPid(): number {
  return Number(readFileSync(postmasterFile(), "utf8").split("\n")[0]);
}

/** Waits for Next to answer on the port and returns the pids that matter. */
async function running(l: Launcher) {
  await until(`Next on port ${l.port}\n${l.output()}`, () => listening(l.port), 90_000);
  const tree = descendants(l.child.pid!);
  const server = tree.find((p) => p.cmdline.startsWith("next-server"));
  const cli = tree.find((p) => p.cmdline.includes("next/dist/bin/next") && p.cmdline.includes(" dev"));
  expect(server, tree.map((p) => p.cmdline).join("\n")).toBeDefined();
  expect(cli).toBeDefined();
  return { server: server!.pid, cli: cli!.pid, postgres: postmasterPid() };
}

/** The launcher exits within `ms` with `code`, and leaves no Next and no database running. */
async function expectStopped(l: Launcher, pids: number[], code: number, ms = 30_000): Promise<void> {
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("still running"), ms));
  const result = await Promise.race([l.exited, timeout]);
  // Whatever the outcome, nothing of this launcher is left behind for the next test.
  const leftovers = () => [...descendants(l.child.pid!).map((p) => p.pid), ...pids.filter(alive)];
  const cleanUp = () => {
    for (const pid of leftovers()) process.kill(pid, "SIGKILL");
    l.child.kill("SIGKILL");
  };
  if (result === "still running") cleanUp();
  expect(result, l.output().slice(-3000)).toBe(code);
  // A forked server whose `next dev` was killed goes a moment after its IPC channel closes.
  // On a loaded machine (the whole suite on two cores) a fast shutdown can take seconds.
  const stillAlive = await until("every process to be gone", () => pids.every((pid) => !alive(pid)), 20_000).then(
    () => [],
    () => pids.filter(alive),
  );
  if (stillAlive.length > 0) {
    cleanUp();
    await until("the leftovers to be killed", () => pids.every((pid) => !alive(pid)), 5000).catch(() => undefined);
  }
  expect(stillAlive, "processes left running by the launcher").toEqual([]);
  // Nothing of Next still holds the port. (Another test of a parallel run may take the freed
  // port number for a server of its own: only a Next process there is a failure.)
  await until("the port to close", async () => !(await listening(l.port)), 5000).catch(() => undefined);
  const holder = execFileSync("ss", ["-ltnpH", `sport = :${l.port}`], { encoding: "utf8" }).trim();
  expect(holder, `port ${l.port} is still Next's`).not.toMatch(/next-server/);
}

describe.skipIf(process.platform !== "linux")("the launcher", () => {
  it("exits 137 and stops the database when Next's server is killed with SIGKILL", async () => {
    const l = await launch();
    const pids = await running(l);
    process.kill(pids.server, "SIGKILL");
    await expectStopped(l, [pids.server, pids.cli, pids.postgres], 137);
    expect(l.output()).toContain("killed by SIGKILL");
  }, 180_000);

  it("exits 137 and stops the database when the Next process it started is killed with SIGKILL", async () => {
    const l = await launch();
    const pids = await running(l);
    process.kill(pids.cli, "SIGKILL");
    await expectStopped(l, [pids.server, pids.cli, pids.postgres], 137);
  }, 180_000);

  it("stops Next and the database on SIGTERM (143) and on SIGINT (130)", async () => {
    for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
      const l = await launch();
      const pids = await running(l);
      l.child.kill(signal);
      await expectStopped(l, [pids.server, pids.cli, pids.postgres], code);
    }
  }, 240_000);

  it("a SIGTERM while the database is starting leaves no database running", async () => {
    rmSync(postmasterFile(), { force: true });
    const l = await launch();
    await until("the database to start", () => existsSync(postmasterFile()) && readFileSync(postmasterFile(), "utf8").includes("\n"), 60_000);
    const postgres = postmasterPid();
    l.child.kill("SIGTERM");
    await expectStopped(l, [postgres], 143);
    expect(descendants(process.pid).filter((p) => p.cmdline.includes("next"))).toEqual([]);
  }, 120_000);
});
