/**
 * Access control with ARBOR_PASSWORD set, on a third copy of the built app that this file
 * starts and stops (e2e/auth-app.ts: its own port and database), so the main e2e app keeps
 * running without a password.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { type Browser, expect, test } from "@playwright/test";
import { AUTH_APP_PASSWORD, AUTH_APP_PORT } from "./auth-ports";

const BASE = `http://127.0.0.1:${AUTH_APP_PORT}`;
let app: ChildProcess | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const tsx = createRequire(import.meta.url).resolve("tsx/cli");
  const child = spawn(process.execPath, [tsx, "--conditions=react-server", "e2e/auth-app.ts"], { stdio: ["ignore", "pipe", "inherit"] });
  app = child;
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
  if (!app || app.exitCode !== null) return;
  const exited = new Promise((r) => app?.once("exit", r));
  app.kill("SIGTERM");
  await exited;
});

const newPage = async (browser: Browser, headers?: Record<string, string>) => {
  const context = await browser.newContext({ baseURL: BASE, ...(headers ? { extraHTTPHeaders: headers } : {}) });
  return { context, page: await context.newPage() };
};

/** The form's own alert (Next's route announcer is an alert too). */
const loginError = (page: import("@playwright/test").Page) => page.getByRole("form", { name: "Sign in" }).getByRole("alert");

async function signIn(page: import("@playwright/test").Page, password: string) {
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("an anonymous page request is redirected to the login page", async ({ browser }) => {
  const { context, page } = await newPage(browser);
  await page.goto("/sessions/some-session?entry=e1");
  await expect(page).toHaveURL(`${BASE}/login?next=${encodeURIComponent("/sessions/some-session?entry=e1")}`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  await context.close();
});

test("anonymous API calls and server action posts are refused with 401", async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: BASE });
  const api = await request.get("/api/sessions");
  expect(api.status()).toBe(401);
  expect(await api.json()).toMatchObject({ error: "Sign in required" });
  const chat = await request.post("/api/chat", { data: { id: "x", message: {} } });
  expect(chat.status()).toBe(401);
  const action = await request.post("/", { headers: { "next-action": "0123456789abcdef", "content-type": "text/plain;charset=UTF-8" }, data: "[]" });
  expect(action.status()).toBe(401);
  await request.dispose();
});

test("a wrong password shows an error and sets no cookie", async ({ browser }) => {
  const { context, page } = await newPage(browser);
  await page.goto("/");
  await expect(page).toHaveURL(`${BASE}/login`);
  await signIn(page, "not the password");
  await expect(loginError(page)).toHaveText("Wrong password");
  expect((await context.cookies()).find((c) => c.name === "arbor_session")).toBeUndefined();
  await context.close();
});

test("six rapid wrong attempts are rate-limited", async ({ browser }) => {
  // Its own client address (the limit is per client), so the sign-ins below are not affected.
  const { context, page } = await newPage(browser, { "x-forwarded-for": "203.0.113.77" });
  await page.goto("/login");
  for (let i = 1; i <= 6; i++) {
    const answered = page.waitForResponse((r) => r.url().endsWith("/api/auth/login"));
    await signIn(page, `wrong ${i}`);
    const res = await answered;
    expect(res.status()).toBe(i <= 5 ? 401 : 429);
  }
  await expect(loginError(page)).toHaveText(/^Too many attempts — try again in \d+ seconds?$/);
  // Even the right password waits now.
  await signIn(page, AUTH_APP_PASSWORD);
  await expect(loginError(page)).toHaveText(/^Too many attempts/);
  await expect(page).toHaveURL(/\/login$/);
  await context.close();
});

test("the right password opens the sessions page with an HttpOnly cookie; sign out goes back to login", async ({ browser }) => {
  const { context, page } = await newPage(browser);
  await page.goto("/");
  await signIn(page, AUTH_APP_PASSWORD);
  await expect(page).toHaveURL(`${BASE}/`);
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();

  const cookie = (await context.cookies()).find((c) => c.name === "arbor_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });
  expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 6 * 24 * 3600);
  expect(await page.evaluate(() => document.cookie)).not.toContain("arbor_session");

  // Signed in, actions and routes work: a server action creates a session, the API lists it.
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  const list = await page.request.get("/api/sessions");
  expect(list.status()).toBe(200);
  expect((await list.json()).sessions).toHaveLength(1);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${BASE}/login`);
  expect((await context.cookies()).find((c) => c.name === "arbor_session")).toBeUndefined();
  await page.goto("/");
  await expect(page).toHaveURL(`${BASE}/login`);
  await context.close();
});

test("after signing in, the login page sends you on to where you were going", async ({ browser }) => {
  const { context, page } = await newPage(browser);
  await page.goto("/?q=none");
  await expect(page).toHaveURL(`${BASE}/login?next=${encodeURIComponent("/?q=none")}`);
  await signIn(page, AUTH_APP_PASSWORD);
  await expect(page).toHaveURL(`${BASE}/?q=none`);
  await page.goto("/login");
  await expect(page).toHaveURL(`${BASE}/`);
  await context.close();
});
