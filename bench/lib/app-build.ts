/**
 * The built app for the canvas benchmark, in its own folder `<tmpdir>/arbor-bench-app`.
 *
 * Why not the repository's `.next`: other people run `next start` on it (e2e) while they work;
 * rebuilding it under a running server breaks that server. So the sources are copied to that
 * folder (node_modules hard-linked when on the same file system, else copied), built there with
 * `next build`, and started there. The build is reused while the content hash of the sources
 * (and package-lock.json) is unchanged; otherwise it is rebuilt (1–3 min on 2 cores).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const ROOT = process.cwd();
// Outside the repository: inside it, Next would take the repository's lockfile as the workspace
// root and resolve React twice.
export const APP_DIR = path.join(os.tmpdir(), "arbor-bench-app");
// `test` and `cli` too: `next build` type-checks the whole folder, and tests next to the sources import them.
const DIRS = ["app", "components", "lib", "prompts", "generated", "test", "cli", "scripts"];
const FILES = ["next.config.ts", "tsconfig.json", "postcss.config.mjs", "package.json", "package-lock.json", "proxy.ts", "next-env.d.ts"];
const HASH_FILE = path.join(APP_DIR, ".bench-source-hash");

/** Next of the copy: the one of the repository would load a second React next to the copy's. */
export const nextBin = () => path.join(APP_DIR, "node_modules", "next", "dist", "bin", "next");

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) out.push(...(await files(p)));
    else if (d.isFile()) out.push(p);
  }
  return out;
}

async function sourceHash(): Promise<string> {
  const hash = createHash("sha256");
  const list = [...FILES.map((f) => path.join(ROOT, f)).filter((f) => existsSync(f))];
  for (const d of DIRS) if (existsSync(path.join(ROOT, d))) list.push(...(await files(path.join(ROOT, d))));
  for (const f of list.sort()) {
    hash.update(path.relative(ROOT, f));
    hash.update(await readFile(f));
  }
  return hash.digest("hex");
}

export function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "inherit"], ...opts });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`))));
  });
}

/** The folder holding an up-to-date build (`allowBuild` false: whatever build is there). */
export async function prepareApp(opts: { allowBuild: boolean; env: NodeJS.ProcessEnv }): Promise<string> {
  const built = existsSync(path.join(APP_DIR, ".next", "BUILD_ID"));
  const want = await sourceHash();
  const have = existsSync(HASH_FILE) ? (await readFile(HASH_FILE, "utf8")).trim() : "";
  if (built && want === have) return APP_DIR;
  if (!opts.allowBuild) {
    if (!built) throw new Error(`canvas: no build in ${APP_DIR} (run without --no-build)`);
    console.log("  the bench build is older than the code; --no-build: using it anyway");
    return APP_DIR;
  }
  console.log(`  copying the sources to ${path.relative(ROOT, APP_DIR)} and running next build…`);
  const started = performance.now();
  await mkdir(APP_DIR, { recursive: true });
  for (const d of DIRS) {
    await rm(path.join(APP_DIR, d), { recursive: true, force: true });
    if (existsSync(path.join(ROOT, d))) await cp(path.join(ROOT, d), path.join(APP_DIR, d), { recursive: true });
  }
  for (const f of FILES) if (existsSync(path.join(ROOT, f))) await cp(path.join(ROOT, f), path.join(APP_DIR, f));
  // The copy holds no test/ or e2e/ folder, so the tests next to the sources (which import them)
  // would fail `next build`'s type check: the copy's tsconfig leaves the tests out.
  const tsconfigPath = path.join(APP_DIR, "tsconfig.json");
  const tsconfig = JSON.parse(await readFile(tsconfigPath, "utf8")) as { exclude?: string[] };
  tsconfig.exclude = [...(tsconfig.exclude ?? []), "**/*.test.ts", "**/*.test.tsx", "**/test-*.ts", "components/tree/layout/layout-check.ts"];
  await writeFile(tsconfigPath, JSON.stringify(tsconfig, null, 2));
  // Re-linked on every rebuild, so a changed install is picked up; removing links leaves the originals.
  await rm(path.join(APP_DIR, "node_modules"), { recursive: true, force: true });
  await run("cp", ["-al", path.join(ROOT, "node_modules"), APP_DIR], { cwd: ROOT, env: process.env }).catch(() =>
    run("cp", ["-a", path.join(ROOT, "node_modules"), APP_DIR], { cwd: ROOT, env: process.env }),
  );
  await rm(HASH_FILE, { force: true });
  await run(process.execPath, [nextBin(), "build"], { cwd: APP_DIR, env: { ...opts.env, NODE_ENV: "production" } });
  await writeFile(HASH_FILE, `${want}\n`);
  console.log(`  next build took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return APP_DIR;
}
