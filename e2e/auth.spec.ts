/**
 * Access control with ARBOR_PASSWORD set, on a third copy of the built app that this file
 * starts and stops (e2e/auth-app.ts: its own port and database), so the main e2e app keeps
 * running without a password.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import type { Browser } from "@playwright/test";
import { expect, test } from "./test";
import { OWN_LOOPBACK_NAME } from "@/lib/http/request-guard";
import { AUTH_APP_PASSWORD, AUTH_APP_PORT } from "./auth-ports";

const BASE = `http://127.0.0.1:${AUTH_APP_PORT}`;
/** Bound to loopback, the cookie names carry the port (lib/auth/cookie.ts). */
const SESSION = `arbor_session_${AUTH_APP_PORT}`;
const DEVICE = `arbor_device_${AUTH_APP_PORT}`;
let app: ChildProcess | undefined;
let logs = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const tsx = createRequire(import.meta.url).resolve("tsx/cli");
  const child = spawn(process.execPath, [tsx, "--conditions=react-server", "e2e/auth-app.ts"], { stdio: ["ignore", "pipe", "pipe"] });
  app = child;
  child.stderr?.on("data", (chunk: Buffer) => {
    logs += chunk.toString();
    process.stderr.write(chunk);
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      logs += chunk.toString();
      if (logs.includes("auth-app ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`e2e/auth-app.ts exited with ${code} before it was ready:\n${logs.slice(-2000)}`)));
  });
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

test("a real server action posted anonymously to the public login page is refused, and the server logs no exception", async ({ playwright }) => {
  // An action id of this build (the home page's "New session"): Next would forward it from
  // /login to the page that owns it, and that half-forwarded request used to crash in the log.
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as { node: Record<string, { exportedName?: string }> };
  const id = Object.entries(manifest.node).find(([, a]) => a.exportedName === "createSession")?.[0];
  expect(id).toBeDefined();
  const request = await playwright.request.newContext({ baseURL: BASE });
  const before = logs.length;
  for (const type of ["text/plain;charset=UTF-8", "multipart/form-data; boundary=b"]) {
    const res = await request.post("/login", { headers: { "next-action": id!, "content-type": type }, data: type.startsWith("text") ? "[]" : "--b--\r\n" });
    expect(res.status()).toBe(401);
  }
  await request.dispose();
  await new Promise((r) => setTimeout(r, 500));
  expect(logs.slice(before)).not.toMatch(/uncaughtException|Error: aborted/);
});

test("the right password opens the sessions page with an HttpOnly cookie; sign out goes back to login", async ({ browser }) => {
  const { context, page } = await newPage(browser);
  await page.goto("/");
  await signIn(page, AUTH_APP_PASSWORD);
  await expect(page).toHaveURL(`${BASE}/`);
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();

  const cookie = (await context.cookies()).find((c) => c.name === SESSION);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });
  expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 6 * 24 * 3600);
  expect(await page.evaluate(() => document.cookie)).not.toContain(SESSION);

  // Signed in, actions and routes work: a server action creates a session, the API lists it.
  // The session page's own requests are let finish first: signed out while one is in flight, it
  // would rightly get a 401, which the console guard counts as an error.
  const pageRequests = ["/skeleton", "/calls", "/secrets", "/usage"].map((part) =>
    page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(part), { timeout: 15_000 }).catch(() => undefined),
  );
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  await Promise.all(pageRequests);
  const list = await page.request.get("/api/sessions");
  expect(list.status()).toBe(200);
  expect((await list.json()).sessions).toHaveLength(1);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${BASE}/login`);
  expect((await context.cookies()).find((c) => c.name === SESSION)).toBeUndefined();
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

test("signed in at arbor.localhost, other local services on localhost / 127.0.0.1 never receive the cookies", async ({ browser }) => {
  // Another service on this machine that records the cookies browsers send it.
  const received: string[] = [];
  const neighbour = createServer((req, res) => {
    if (req.url === "/") received.push(req.headers.cookie ?? "");
    // A page with its own (empty) icon, so the browser asks for nothing else.
    res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>neighbour</title><link rel="icon" href="data:,">');
  });
  await new Promise<void>((resolve) => neighbour.listen(0, "127.0.0.1", resolve));
  const other = (neighbour.address() as AddressInfo).port;
  const visitNeighbour = async (page: import("@playwright/test").Page) => {
    for (const host of ["127.0.0.1", "localhost"]) await page.goto(`http://${host}:${other}/`);
  };
  try {
    // Arbor's own name (Chromium resolves *.localhost to this machine, as current browsers do).
    const own = `http://${OWN_LOOPBACK_NAME}:${AUTH_APP_PORT}`;
    const a = await browser.newContext({ baseURL: own });
    const page = await a.newPage();
    await page.goto("/login");
    await signIn(page, AUTH_APP_PASSWORD);
    await expect(page).toHaveURL(`${own}/`);
    expect((await a.cookies()).map((c) => [c.name, c.domain])).toContainEqual([SESSION, OWN_LOOPBACK_NAME]);
    await visitNeighbour(page);
    expect(received).toHaveLength(2);
    expect(received.join(" ")).not.toContain("arbor_");
    await a.close();

    // The same at 127.0.0.1: cookies are kept apart by host name, not by port, so the neighbour
    // gets them (the reason for the name of its own; README "Sign-in").
    received.length = 0;
    const b = await browser.newContext({ baseURL: BASE });
    const pageB = await b.newPage();
    await pageB.goto("/login");
    await signIn(pageB, AUTH_APP_PASSWORD);
    await expect(pageB).toHaveURL(`${BASE}/`);
    await visitNeighbour(pageB);
    expect(received[0]).toContain(`${SESSION}=`);
    await b.close();
  } finally {
    await new Promise((r) => neighbour.close(r));
  }
});

test("Signed-in devices lists this device and signs another device out", async ({ browser }) => {
  const other = await newPage(browser);
  await other.page.goto("/login");
  await signIn(other.page, AUTH_APP_PASSWORD);
  await expect(other.page).toHaveURL(`${BASE}/`);

  const { context, page } = await newPage(browser);
  await page.goto("/login");
  await signIn(page, AUTH_APP_PASSWORD);
  await expect(page).toHaveURL(`${BASE}/`);
  await page.getByRole("link", { name: "Signed-in devices" }).click();
  await expect(page.getByRole("heading", { name: "Signed-in devices" })).toBeVisible();
  const list = page.getByRole("list", { name: "Signed-in devices" });
  await expect(list.getByRole("listitem", { name: /\(this device\)$/ })).toHaveCount(1);
  await expect(list.getByText("This device")).toBeVisible();
  const before = await list.getByRole("listitem").count();
  expect(before).toBeGreaterThanOrEqual(2);

  await list.getByRole("listitem").filter({ hasNotText: "This device" }).first().getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("status")).toHaveText(/^Signed out /);
  await expect(list.getByRole("listitem")).toHaveCount(before - 1);
  await page.getByRole("button", { name: "Sign out all other devices" }).click();
  await expect(page.getByRole("status")).toHaveText("Signed out all other devices");
  await expect(list.getByRole("listitem")).toHaveCount(1);

  // The other browser's cookie is refused on its next request.
  expect((await other.page.request.get("/api/sessions")).status()).toBe(401);
  await other.page.goto("/");
  await expect(other.page).toHaveURL(`${BASE}/login`);
  await other.context.close();
  await context.close();
});

test("a wrong password shows an error and sets no cookie", async ({ browser, consoleGuard }) => {
  // The refused sign-in is this test's point; the browser logs its 401.
  consoleGuard.allow(/status of 401 .*\/api\/auth\/login/);
  const { context, page } = await newPage(browser);
  await page.goto("/");
  await expect(page).toHaveURL(`${BASE}/login`);
  await signIn(page, "not the password");
  await expect(loginError(page)).toHaveText("Wrong password");
  expect((await context.cookies()).find((c) => c.name === SESSION)).toBeUndefined();
  await context.close();
});

test("rapid wrong attempts are rate-limited, whatever X-Forwarded-For says; the owner's browser still signs in", async ({ browser, consoleGuard }) => {
  // The refused and rate-limited sign-ins are this test's point; the browser logs their 401 and 429.
  consoleGuard.allow(/status of (401|429) .*\/api\/auth\/login/);
  // The owner's browser signed in before: it keeps the device cookie after signing out.
  const owner = await newPage(browser);
  await owner.page.goto("/login");
  // The home page's own requests after it hydrates (the list's live subscription, its filters'
  // counts) are let answer first: sent after the sign-out, they would rightly get a 401, which
  // the console guard counts as an error.
  const homeRequests = ["/api/sessions/events", "/api/sessions/facets"].map((route) =>
    owner.page.waitForResponse((r) => new URL(r.url()).pathname === route, { timeout: 15_000 }).catch(() => undefined),
  );
  await signIn(owner.page, AUTH_APP_PASSWORD);
  await expect(owner.page).toHaveURL(`${BASE}/`);
  await Promise.all(homeRequests);
  await owner.page.getByRole("button", { name: "Sign out" }).click();
  await expect(owner.page).toHaveURL(`${BASE}/login`);
  expect((await owner.context.cookies()).find((c) => c.name === DEVICE)).toMatchObject({ httpOnly: true });

  // A stranger on the same address (every local process is 127.0.0.1), forging a client address.
  const { context, page } = await newPage(browser, { "x-forwarded-for": "203.0.113.77" });
  await page.goto("/login");
  const statuses: number[] = [];
  for (let i = 1; i <= 6 && !statuses.includes(429); i++) {
    const answered = page.waitForResponse((r) => r.url().endsWith("/api/auth/login"));
    await signIn(page, `wrong ${i}`);
    statuses.push((await answered).status());
  }
  expect(statuses.at(-1)).toBe(429);
  await expect(loginError(page)).toHaveText(/^Too many attempts — try again in \d+ seconds?$/);
  // Even the right password waits now, for this browser.
  await signIn(page, AUTH_APP_PASSWORD);
  await expect(loginError(page)).toHaveText(/^Too many attempts/);
  await expect(page).toHaveURL(/\/login$/);
  await context.close();

  // The owner's known browser has its own bucket.
  await signIn(owner.page, AUTH_APP_PASSWORD);
  await expect(owner.page).toHaveURL(`${BASE}/`);
  await owner.context.close();
});

/** Every descendant of a process, from /proc (Linux). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, ppid] of parent) {
      if (ppid !== pid) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

test("the plaintext password is in no environment the launcher started and in no log", async () => {
  test.skip(process.platform !== "linux", "reads /proc");
  const read = (pid: number, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, "latin1");
    } catch {
      return undefined;
    }
  };
  const all = descendants(app!.pid!).map((pid) => ({ pid, cmd: read(pid, "cmdline") ?? "", environ: read(pid, "environ") }));
  // scripts/launch.mjs was handed the plaintext by its caller (the operator); nothing it starts may
  // hold it: not run-app.ts, not tsx's esbuild helper, not Next.
  const started = all.filter((p) => !p.cmd.includes("launch.mjs") && !p.cmd.includes("auth-app.ts"));
  expect(started.some((p) => p.cmd.includes("run-app.ts"))).toBe(true);
  // Next renames its process ("next-server (v16…)"), which rewrites its cmdline.
  const next = started.filter((p) => /next-server|next\/dist/.test(p.cmd));
  expect(next.length).toBeGreaterThan(0);
  for (const p of started) expect(p.environ, `process ${p.pid} (${p.cmd.replaceAll("\0", " ")})`).not.toContain(AUTH_APP_PASSWORD);
  for (const p of next) expect(p.environ).toContain("ARBOR_PASSWORD_HASH=scrypt$");
  expect(logs).toContain("sign-in is on");
  expect(logs).not.toContain(AUTH_APP_PASSWORD);
});
