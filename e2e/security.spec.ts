/**
 * What the README's "Security" promises, against the built app (e2e/server.ts), real browser, real HTTP, real database:
 * - CSRF: from an attacker page on another port of 127.0.0.1 (same site) and on localhost
 *   (another site), a no-cors `text/plain` fetch and urlencoded, text/plain and multipart form
 *   posts to EVERY mutating route (found by globbing app/api/**\/route.ts, so a new route cannot
 *   be forgotten) and to a server action captured from the page are answered 403; a direct
 *   request with a foreign Origin too; the same requests from the app's own origin work.
 *   The same again on the password app (e2e/auth-app.ts), signed in, in e2e/security-auth.spec.ts.
 * - Host: a foreign and a rebinding Host get 421 on pages, API routes, actions and the two
 *   upload routes; a name in ARBOR_ALLOWED_HOSTS (the offline app's) works.
 * - Security headers on pages, API JSON, the export, 404 and the upload routes.
 * - A remote image in a message is not fetched until "Load image" is clicked.
 */
import { expect, test } from "./test";
import { type Attacker, openAttackerPage, rawRequest, startAttacker } from "./attacker";
import { E2E_ALLOWED_HOST, E2E_PORTS } from "./ports";
import { assertCsrfRefused, captureCreateSessionAction } from "./security-helpers";
import { importJsonl } from "./session-helpers";

const APP = `http://127.0.0.1:${E2E_PORTS.app}`;
const ATTACKER_PORT = E2E_PORTS.app + 8;
let attacker: Attacker;

test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  attacker = await startAttacker(ATTACKER_PORT);
});
test.afterAll(async () => {
  await attacker?.close();
});

const RUN = Date.now().toString(36);
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
function sessionWithImage(id: string, imageUrl: string): string {
  return [
    { type: "session", version: 3, id, timestamp: "2025-06-01T12:00:00.000Z", cwd: "/w", title: `Image ${RUN}` },
    { type: "message", id: "u1", parentId: null, timestamp: "2025-06-01T12:00:01.000Z", message: { role: "user", content: "Show the picture", timestamp: 1 } },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: "2025-06-01T12:00:02.000Z",
      message: {
        role: "assistant",
        content: [{ type: "text", text: `Here it is: ![tracking pixel](${imageUrl}) and inline ![dot](data:image/png;base64,iVBORw0KGgo=)` }],
        provider: "openai-compatible",
        model: "fake-model",
        usage,
        stopReason: "stop",
        timestamp: 2,
      },
    },
  ]
    .map((l) => JSON.stringify(l))
    .join("\n");
}

test("cross-origin and same-site cross-port posts are refused on every mutating route and action; same origin works", async ({ page, request, consoleGuard }) => {
  test.setTimeout(180_000);
  // The refusals are this test's point: the browser logs each 403.
  consoleGuard.allow(/status of 403 \(Forbidden\)/);
  const sessionId = await importJsonl(request, `csrf-${RUN}.jsonl`, sessionWithImage(`csrf-${RUN}`, "http://example.invalid/x.png"));
  const action = await captureCreateSessionAction(page, APP);
  await assertCsrfRefused({ page, request, base: APP, sessionId, action, attackerOrigins: [`http://127.0.0.1:${ATTACKER_PORT}`, `http://localhost:${ATTACKER_PORT}`] });
});

test("a foreign or rebinding Host gets 421 everywhere; a name in ARBOR_ALLOWED_HOSTS works", async () => {
  const port = E2E_PORTS.app;
  const targets: { method: string; path: string; headers?: Record<string, string>; body?: string }[] = [
    { method: "GET", path: "/" },
    { method: "GET", path: "/sessions/x" },
    { method: "GET", path: "/api/sessions" },
    { method: "POST", path: "/", headers: { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" }, body: "[]" },
    { method: "POST", path: "/api/chat", headers: { "content-type": "application/json" }, body: "{}" },
    { method: "POST", path: "/api/import?fileName=a.jsonl", headers: { "content-type": "application/octet-stream" }, body: "{}" },
    { method: "POST", path: "/api/sessions/x/files?path=a.txt", headers: { "content-type": "application/octet-stream" }, body: "x" },
    { method: "GET", path: "/api/sessions/x/files" },
  ];
  for (const host of ["evil.example", `rebind.attacker.test:${port}`, `localhost:${port + 1}`]) {
    for (const t of targets) {
      const res = await rawRequest(port, { ...t, host });
      expect(res.status, `${t.method} ${t.path} with Host ${host}`).toBe(421);
      expect(res.body).toContain("ARBOR_ALLOWED_HOSTS");
    }
  }
  // A forged X-Forwarded-Host (Next's action check prefers it) is refused too.
  expect((await rawRequest(port, { path: "/api/sessions", host: `127.0.0.1:${port}`, headers: { "x-forwarded-host": "evil.example" } })).status).toBe(421);
  // The loopback names on the served port work.
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) expect((await rawRequest(port, { path: "/api/sessions", host })).status).toBe(200);
  // ARBOR_ALLOWED_HOSTS: only the offline app lists the name.
  const offline = E2E_PORTS.offlineApp;
  expect((await rawRequest(offline, { path: "/api/sessions", host: `${E2E_ALLOWED_HOST}:${offline}` })).status).toBe(200);
  expect((await rawRequest(offline, { path: "/", host: E2E_ALLOWED_HOST })).status).toBe(200);
  expect((await rawRequest(port, { path: "/api/sessions", host: `${E2E_ALLOWED_HOST}:${port}` })).status).toBe(421);
});

test("security headers are on every page and route", async ({ request }) => {
  const sessionId = await importJsonl(request, `headers-${RUN}.jsonl`, sessionWithImage(`headers-${RUN}`, "http://example.invalid/x.png"));
  const urls = [
    "/",
    `/sessions/${sessionId}`,
    "/login",
    "/no-such-page",
    "/api/sessions",
    "/api/models",
    `/api/sessions/${sessionId}/tree`,
    `/api/sessions/${sessionId}?format=jsonl`,
    `/api/sessions/${sessionId}?format=html`,
    `/api/sessions/${sessionId}/files`,
    "/api/import",
    "/icon.svg",
  ];
  for (const url of urls) {
    const res = await request.get(url, { maxRedirects: 0 });
    const h = res.headers();
    const csp = h["content-security-policy"] ?? "";
    if (url.endsWith("format=html")) {
      // The export keeps its own, stricter policy (lib/export-html); X-Frame-Options stops framing.
      expect(csp, url).toContain("default-src 'none'");
      expect(csp, url).toContain("img-src data:");
    } else for (const part of ["img-src 'self' data: blob:", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"]) expect(csp, `${url}: ${csp}`).toContain(part);
    expect(csp, url).not.toContain("unsafe-eval");
    expect(h["x-content-type-options"], url).toBe("nosniff");
    expect(h["referrer-policy"], url).toBe("same-origin");
    expect(h["x-frame-options"], url).toBe("DENY");
    expect(h["permissions-policy"], url).toContain("camera=()");
  }
  // POSTs the proxy answers itself, and refusals, carry them too.
  const refused = await request.post("/api/chat", { headers: { origin: "https://evil.example", "content-type": "application/json" }, data: "{}" });
  expect(refused.status()).toBe(403);
  expect(refused.headers()["x-frame-options"]).toBe("DENY");
});

test("a remote image in a message is not fetched until Load image is clicked", async ({ page, request, context }) => {
  const imageUrl = `http://127.0.0.1:${ATTACKER_PORT}/p.png?secret=1`;
  const sessionId = await importJsonl(request, `image-${RUN}.jsonl`, sessionWithImage(`image-${RUN}`, imageUrl));
  attacker.imageHits.length = 0;
  await page.goto(`/sessions/${sessionId}`);
  const placeholder = page.locator("[data-image-placeholder]").filter({ hasText: "tracking pixel" });
  await expect(placeholder).toContainText(imageUrl);
  await expect(page.getByRole("img", { name: "dot" })).toBeVisible(); // data: renders inline
  await page.waitForTimeout(1000);
  expect(attacker.imageHits).toEqual([]);
  const link = placeholder.getByRole("link", { name: "Load image" });
  await expect(link).toHaveAttribute("rel", /noopener/);
  await expect(link).toHaveAttribute("rel", /noreferrer/);
  const popup = context.waitForEvent("page");
  await link.click();
  await (await popup).waitForLoadState();
  expect(attacker.imageHits).toEqual(["/p.png?secret=1"]);
});

test("the attacker page cannot frame the app", async ({ page, consoleGuard }) => {
  // The blocked frame is this test's point: Chromium logs the frame-ancestors refusal.
  consoleGuard.allow(/violates the following Content Security Policy directive: "frame-ancestors 'none'"/);
  await openAttackerPage(page, `http://127.0.0.1:${ATTACKER_PORT}`);
  const framed = page.waitForResponse((r) => r.url() === `${APP}/`);
  await page.evaluate((src) => {
    const frame = document.createElement("iframe");
    frame.src = src;
    document.body.append(frame);
  }, `${APP}/`);
  await framed;
  await page.waitForTimeout(500);
  const inner = page.frames().find((f) => f !== page.mainFrame());
  // Blocked by frame-ancestors/X-Frame-Options: the frame stays on an error page, not the app.
  expect(await inner?.getByRole("button", { name: "New session" }).count().catch(() => 0)).toBe(0);
});
