/**
 * A test worker as a real child process (tsx with the react-server condition, like `npm start`):
 * stdin and stdout piped for its protocol, stderr inherited; `kill` is SIGKILL (the process dies
 * without cleaning up: its database connections just close), `close` ends stdin and waits.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";

const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", () => r()));
}

export function spawnWorker(script: string, env: Record<string, string>): { child: ChildProcess; kill(): Promise<void>; close(): Promise<void> } {
  const child = spawn(process.execPath, [tsxCli, "--conditions=react-server", script], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "inherit"] });
  return {
    child,
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
    async close() {
      child.stdin!.end();
      await exited(child);
    },
  };
}
