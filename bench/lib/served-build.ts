/**
 * `next start` of a prepared build folder (its own node_modules and .next), for the A/B tools
 * (bench/canvas-ab.ts, canvas-ab-huge.ts) that serve two builds at once on one database.
 * Resolves once the home page answers; the caller kills `child`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { appEnv } from "../canvas";

export async function startBuild(appDir: string, port: number, opts: { databaseUrl: string; dataDir: string }): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(appDir, "node_modules/next/dist/bin/next"), "start", "--port", String(port), "--hostname", "127.0.0.1"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: appEnv({ DATABASE_URL: opts.databaseUrl, ARBOR_DATA_DIR: path.join(opts.dataDir, `data-${port}`), NODE_ENV: "production" }),
    cwd: appDir,
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${url}/`).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${appDir} did not start`);
}
