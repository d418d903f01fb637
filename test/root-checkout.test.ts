/**
 * The README's commands as root from a checkout inside a 0700 folder (as `/root` is in most
 * container images): the embedded server runs as `postgres`, which cannot enter that folder, so
 * its programs and cluster must be placed where it can (lib/postgres/embedded-place.ts).
 *
 * The checkout is a `git clone` of this repository into a new 0700 folder, with the working tree's
 * uncommitted files laid over it (so the test checks the code as it is), and node_modules as hard
 * links of this one's (an `npm install` there would download nothing new and take half a minute).
 * Hard links share the files but not the path: the copy is as unreachable as a real install.
 * From there: the test suite's own set-up (a one-file vitest run) and `npm run dev`, answering "/".
 * Runs only as root, the one case it is about.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readlinkSync, statSync } from "node:fs";
import { chmod, cp, mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "./cli-helpers";

const isRoot = process.getuid?.() === 0;
const hasGit = (() => {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return existsSync(path.join(PROJECT_ROOT, ".git"));
  } catch {
    return false;
  }
})();

let home = "";
let stage = "";
let checkout = "";

/** The environment of a fresh shell: none of this run's vitest, Next or database variables. */
function freshEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|VITE_|NODE_ENV|DATABASE_URL|ARBOR_|TEST|npm_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}

beforeAll(async () => {
  if (!isRoot || !hasGit) return;
  home = mkdtempSync(path.join(tmpdir(), "arbor-root-home-"));
  await chmod(home, 0o700);
  // The stage the postgres account can reach (a root-owned 0755 folder), here a temporary one.
  stage = mkdtempSync(path.join(tmpdir(), "arbor-root-stage-"));
  await chmod(stage, 0o755);
  checkout = path.join(home, "arbor");
  execFileSync("git", ["clone", "--quiet", PROJECT_ROOT, checkout]);
  // What differs from HEAD (staged or not, moves included) and what git does not track yet.
  const list = (args: string[]) => execFileSync("git", args, { cwd: PROJECT_ROOT }).toString().split("\0").filter(Boolean);
  const changed = [...list(["diff", "--name-only", "-z", "HEAD"]), ...list(["ls-files", "-z", "--others", "--exclude-standard"])];
  for (const file of changed) {
    const target = path.join(checkout, file);
    if (!existsSync(path.join(PROJECT_ROOT, file))) {
      await rm(target, { force: true });
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await cp(path.join(PROJECT_ROOT, file), target);
  }
  execFileSync("cp", ["-al", path.join(PROJECT_ROOT, "node_modules"), path.join(checkout, "node_modules")]);
  execFileSync("cp", ["-a", path.join(PROJECT_ROOT, "generated"), path.join(checkout, "generated")]);
}, 120_000);

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
  if (stage) await rm(stage, { recursive: true, force: true });
});

function run(cmd: string, args: string[], timeoutMs: number): { code: number | null; output: string } {
  try {
    const output = execFileSync(cmd, args, {
      cwd: checkout,
      env: freshEnv({ ARBOR_POSTGRES_STAGE: stage }),
      timeout: timeoutMs,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { code: 0, output };
  } catch (error) {
    const e = error as { status: number | null; stdout?: string; stderr?: string };
    return { code: e.status, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

async function waitForHttp(url: string, child: ChildProcess, ms: number): Promise<number> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited with ${child.exitCode}`);
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status) return status;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

describe.skipIf(!isRoot || !hasGit)("as root, from a checkout inside a 0700 folder", () => {
  it("the folder is closed to the postgres account, as /root is", () => {
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(run("su", ["-s", "/bin/sh", "postgres", "-c", `test -x ${checkout}`], 10_000).code).not.toBe(0);
  });

  it("the test suite's set-up starts its embedded server, with the data linked from .data", () => {
    const result = run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "lib/group-digits.test.ts"], 240_000);
    expect(result.output).toMatch(/1 passed/);
    expect(result.code).toBe(0);
    const link = path.join(checkout, ".data", "postgres-test");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link).startsWith(stage)).toBe(true);
    // The user's folder was not opened up to do it.
    expect(statSync(home).mode & 0o777).toBe(0o700);
  }, 300_000);

  it("npm run dev answers with the app and stops its database on SIGINT", async () => {
    const port = 3900 + Math.floor(Math.random() * 90);
    const child = spawn("npm", ["run", "dev"], {
      cwd: checkout,
      env: freshEnv({ ARBOR_POSTGRES_STAGE: stage, PORT: String(port) }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    try {
      const status = await waitForHttp(`http://127.0.0.1:${port}/`, child, 240_000);
      expect(status, output).toBe(200);
      expect(output).toMatch(/embedded database runs as "postgres"/);
      expect(output).not.toMatch(/EACCES|Unhandled 'error' event/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        if (child.pid) process.kill(-child.pid, "SIGINT");
        await exited;
      }
    }
    const cluster = readlinkSync(path.join(checkout, ".data", "postgres"));
    // Ctrl-C stops the server too: no postmaster is left on that cluster (PostgreSQL removes its
    // lock file last, once its shutdown is complete).
    const deadline = Date.now() + 20_000;
    while (existsSync(path.join(cluster, "postmaster.pid")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(existsSync(path.join(cluster, "postmaster.pid"))).toBe(false);
  }, 300_000);
});
