// `npm run dev` / `npm start`: the plain-JavaScript front of scripts/run-app.ts. It takes
// ARBOR_PASSWORD out of the environment BEFORE tsx starts (tsx's esbuild helper process would
// otherwise inherit it) and hands it to run-app.ts on stdin instead (ARBOR_PASSWORD_STDIN=1).
// Everything else (arguments, signals, exit code) passes straight through.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const password = process.env.ARBOR_PASSWORD;
delete process.env.ARBOR_PASSWORD;
const viaStdin = password !== undefined && password !== "";
const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const runApp = path.join(import.meta.dirname, "run-app.ts");
const child = spawn(process.execPath, [tsx, "--conditions=react-server", runApp, ...process.argv.slice(2)], {
  stdio: [viaStdin ? "pipe" : "inherit", "inherit", "inherit"],
  env: { ...process.env, ...(viaStdin ? { ARBOR_PASSWORD_STDIN: "1" } : {}) },
});
if (viaStdin) child.stdin.end(password);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGINT" ? 130 : 143)));
