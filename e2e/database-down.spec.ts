/**
 * With the database unreachable the pages say so plainly (the friendly "Database not reachable"
 * page, the API's 503), never a React error. This file starts its own copy of the built app
 * (`next start`, like e2e/server.ts) pointed at a port where no PostgreSQL listens, so the main
 * e2e apps and their database are not disturbed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "./test";
import { E2E_PORTS } from "./ports";

const PORT = E2E_PORTS.app + 6;
const BASE = `http://127.0.0.1:${PORT}`;
let app: ChildProcess | undefined;
let logs = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  app = spawn(process.execPath, [nextBin, "start", "--port", String(PORT), "--hostname", "127.0.0.1"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(PORT),
      // Port 9 (discard): nothing listens there, so every connection is refused at once.
      DATABASE_URL: "postgresql://arbor_app:none@127.0.0.1:9/arbor",
      ARBOR_DATA_DIR: mkdtempSync(path.join(tmpdir(), "arbor-e2e-down-")),
    },
  });
  for (const stream of [app.stdout, app.stderr]) stream?.on("data", (chunk: Buffer) => (logs += chunk.toString()));
  for (let i = 0; ; i++) {
    if (await fetch(`${BASE}/login`).then(() => true, () => false)) break;
    if (i > 300 || app.exitCode !== null) throw new Error(`the app did not start on ${BASE}:\n${logs.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(async () => {
  if (!app || app.exitCode !== null) return;
  app.kill("SIGTERM");
  await new Promise((r) => app!.once("exit", r));
});

test("a session page says the database is not reachable, with a way to try again", async ({ page }) => {
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(`${BASE}/sessions/5d1c2a8e-0000-4000-8000-000000000001`);
  const alert = page.getByRole("alert");
  await expect(alert.getByRole("heading", { name: "Database not reachable" })).toBeVisible();
  await expect(alert.getByRole("link", { name: "Try again" })).toHaveAttribute("href", "/sessions/5d1c2a8e-0000-4000-8000-000000000001");
  await expect(page.getByText(/Minified React error|Application error/)).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test("the API answers 503 with the plain message", async ({ request }) => {
  const res = await request.get(`${BASE}/api/sessions`);
  expect(res.status()).toBe(503);
  expect(res.headers()["retry-after"]).toBe("5");
  expect(await res.json()).toMatchObject({ code: "database_unavailable" });
});
