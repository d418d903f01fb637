/**
 * The CSRF checks of e2e/security.spec.ts on the password app (e2e/auth-app.ts, started and
 * stopped here like e2e/auth.spec.ts does): the victim is signed in, so a page on another port
 * of 127.0.0.1 (same site: the SameSite=Lax cookie goes along) must still be refused with 403
 * on every mutating route and on a captured server action; the signed-in app's own requests work.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { expect, test } from "./test";
import { type Attacker, startAttacker } from "./attacker";
import { AUTH_APP_PASSWORD, AUTH_APP_PORT } from "./auth-ports";
import { E2E_PORTS } from "./ports";
import { assertCsrfRefused, captureCreateSessionAction } from "./security-helpers";

const BASE = `http://127.0.0.1:${AUTH_APP_PORT}`;
const ATTACKER_PORT = E2E_PORTS.app + 8;
let app: ChildProcess | undefined;
let attacker: Attacker;
/** Everything the auth app (the real launcher and Next) wrote to stderr; passed on as it comes. */
let appErrors = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  attacker = await startAttacker(ATTACKER_PORT);
  const tsx = createRequire(import.meta.url).resolve("tsx/cli");
  const child = spawn(process.execPath, [tsx, "--conditions=react-server", "e2e/auth-app.ts"], { stdio: ["ignore", "pipe", "pipe"] });
  app = child;
  child.stderr?.on("data", (chunk: Buffer) => {
    appErrors += chunk.toString();
    process.stderr.write(chunk);
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("auth-app ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`e2e/auth-app.ts exited with ${code} before it was ready:\n${out.slice(-2000)}`)));
  });
  child.stdout?.resume();
});

test.afterAll(async () => {
  await attacker?.close();
  if (!app || app.exitCode !== null) return;
  const exited = new Promise((r) => app?.once("exit", r));
  app.kill("SIGTERM");
  await exited;
});

test("signed in: cross-origin and same-site cross-port posts are refused on every mutating route and action", async ({ browser, consoleGuard }) => {
  test.setTimeout(180_000);
  // The refusals are this test's point: the browser logs each 403.
  consoleGuard.allow(/status of 403 \(Forbidden\)/);
  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  await page.goto(`${BASE}/login`);
  await page.getByLabel("Password").fill(AUTH_APP_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "New session" })).toBeVisible();
  const action = await captureCreateSessionAction(page, BASE);
  const sessionId = page.url().split("/").pop()!;
  await assertCsrfRefused({ page, request: context.request, base: BASE, sessionId, action, attackerOrigins: [`http://127.0.0.1:${ATTACKER_PORT}`, `http://localhost:${ATTACKER_PORT}`] });
  // Anonymous and cross-site: the Origin check answers first (403), before sign-in (401).
  const anonymous = await browser.newContext();
  const res = await anonymous.request.post(`${BASE}/api/chat`, { headers: { origin: `http://127.0.0.1:${ATTACKER_PORT}`, "content-type": "application/json" }, data: "{}" });
  expect(res.status()).toBe(403);
  await anonymous.close();
  await context.close();
  // The browser cancels the opaque responses of its refused no-cors fetches and closes their
  // connections: the server must take that as a client going away, not as an uncaught error
  // (scripts/request-abort.cjs). Closing the contexts closed every connection; the server sees
  // it at once, and its error would be logged on the next tick.
  await new Promise((r) => setTimeout(r, 500));
  expect(appErrors).not.toContain("uncaughtException");
});
