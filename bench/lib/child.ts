/**
 * A bench script run in a child process of its own (memory measured apart from the bench's
 * heap, a sync as `arbor sync` runs it): the same tsx loader and conditions as this process,
 * without NODE_OPTIONS' heap limits. Resolves the JSON of the last line the child prints.
 * Waits for "close", not "exit": a long last line is whole only once the pipe has closed.
 */
import { spawn } from "node:child_process";
import path from "node:path";

export function runChild<T>(script: string, args: readonly string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const { NODE_OPTIONS: _heapLimits, ...env } = process.env;
    const proc = spawn(process.execPath, [...process.execArgv, script, ...args], { env, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    proc.on("error", reject);
    proc.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${path.basename(script)} ${args[0] ?? ""} exited with ${code}`));
      resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as T);
    });
  });
}
