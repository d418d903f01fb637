/**
 * Sign-in on (ARBOR_PASSWORD set before any import): the login and logout routes, the proxy,
 * and the checks inside routes and actions, called directly as Next would call them, on a real
 * database. `x-arbor-peer` stands for the socket address that scripts/peer-address.cjs sets.
 */
import { NextRequest } from "next/server";
import { afterAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "@/test/db";

const PASSWORD = "test password";
vi.hoisted(() => {
  process.env.ARBOR_PASSWORD = "test password";
  process.env.ARBOR_SESSION_SECRET = "auth test secret";
  (globalThis as Record<symbol, string>)[Symbol.for("arbor.peerHeader")] = "x-arbor-peer";
});
const jar = vi.hoisted(() => new Map<string, string>());
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined) }),
}));

// biome-ignore lint/correctness/useHookAtTopLevel: a vitest helper named like a hook, not a React hook
useTestDatabase();
const { POST: login } = await import("./login/route");
const { POST: logout } = await import("./logout/route");
const { proxy, config: proxyConfig } = await import("@/proxy");
const { userFromToken } = await import("@/lib/auth/sessions");
const { requireUser } = await import("@/lib/auth/guard");
const { POST: stopChat } = await import("@/app/api/chat/stop/route");
const { GET: listSessions } = await import("@/app/api/sessions/route");
const { GET: models } = await import("@/app/api/models/route");
const { POST: importRoute } = await import("@/app/api/import/route");
const { POST: uploadFile } = await import("@/app/api/sessions/[id]/files/route");
const { createSession } = await import("@/app/actions");
const { setLabel } = await import("@/app/sessions/[id]/actions");

afterAll(() => {
  delete process.env.ARBOR_PASSWORD;
  delete process.env.ARBOR_SESSION_SECRET;
});

const ORIGIN = "http://127.0.0.1:3000";
let ip = 0;
/** Each test signs in from its own client address, so the limiter's counts stay apart. */
const nextIp = () => `198.51.100.${++ip}`;

function loginRequest(body: unknown, { client = nextIp(), form = false } = {}) {
  return new Request(`${ORIGIN}/api/auth/login`, {
    method: "POST",
    headers: {
      "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
      "x-arbor-peer": client,
      origin: ORIGIN,
      host: "127.0.0.1:3000",
    },
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
  });
}

function tokenOf(res: Response): string {
  const cookie = res.headers.get("set-cookie") ?? "";
  return /arbor_session=([^;]*)/.exec(cookie)?.[1] ?? "";
}

async function signedInToken(): Promise<string> {
  const res = await login(loginRequest({ password: PASSWORD }));
  expect(res.status).toBe(200);
  return tokenOf(res);
}

const withCookie = (url: string, token: string, init: RequestInit = {}) =>
  new Request(url, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: `arbor_session=${token}` } });

describe("POST /api/auth/login", () => {
  it("sets an HttpOnly, SameSite=Lax, 7-day session cookie for the right password", async () => {
    const res = await login(loginRequest({ password: PASSWORD, next: "/sessions/abc" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, next: "/sessions/abc" });
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^arbor_session=v1\./);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=604800/);
    expect(cookie).not.toMatch(/Secure/i); // plain http here
    expect(await userFromToken(tokenOf(res))).toEqual({ id: "owner", sessionId: expect.any(String) });
  });

  it("marks the cookie Secure over https", async () => {
    const req = loginRequest({ password: PASSWORD });
    const https = new Request(req.url.replace("http:", "https:"), {
      method: "POST",
      headers: { ...Object.fromEntries(req.headers), "x-forwarded-proto": "https", origin: "https://127.0.0.1:3000" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect((await login(https)).headers.get("set-cookie")).toMatch(/Secure/i);
  });

  it("answers 401 for a wrong password, without a cookie", async () => {
    const res = await login(loginRequest({ password: "nope" }));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Wrong password", code: "unauthorized" });
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("rate-limits: the 6th attempt from one address is 429 with Retry-After, even with the right password", async () => {
    const client = nextIp();
    for (let i = 0; i < 5; i++) expect((await login(loginRequest({ password: `wrong ${i}` }, { client }))).status).toBe(401);
    const refused = await login(loginRequest({ password: "wrong again" }, { client }));
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(30);
    expect(await refused.json()).toEqual({ error: `Too many attempts — try again in ${retry} seconds`, code: "rate_limited" });
    expect((await login(loginRequest({ password: PASSWORD }, { client }))).status).toBe(429);
    // Another client is not affected.
    expect((await login(loginRequest({ password: PASSWORD }))).status).toBe(200);
  });

  it("answers a form post (no JavaScript) with redirects", async () => {
    const ok = await login(loginRequest({ password: PASSWORD, next: "/sessions/x" }, { form: true }));
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/sessions/x");
    expect(ok.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    const wrong = await login(loginRequest({ password: "no", next: "https://evil.example" }, { form: true }));
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe("/login?error=wrong");
  });

  it("refuses bad bodies and cross-site posts", async () => {
    expect((await login(loginRequest({}))).status).toBe(400);
    const cross = new Request(`${ORIGIN}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example", host: "127.0.0.1:3000" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect((await login(cross)).status).toBe(403);
  });
});

describe("POST /api/auth/logout", () => {
  it("revokes the session and clears the cookie", async () => {
    const token = await signedInToken();
    expect(await userFromToken(token)).not.toBeNull();
    const res = await logout(
      withCookie(`${ORIGIN}/api/auth/logout`, token, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" } }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/login");
    expect(res.headers.get("set-cookie")).toMatch(/arbor_session=;.*Max-Age=0/i);
    expect(await userFromToken(token)).toBeNull();
  });
});

describe("proxy.ts", () => {
  const run = (url: string, init: { method?: string; token?: string; headers?: Record<string, string> } = {}) =>
    proxy(
      new NextRequest(url, {
        method: init.method ?? "GET",
        headers: { ...init.headers, ...(init.token ? { cookie: `arbor_session=${init.token}` } : {}) },
      }),
    );
  const passes = (res: Response) => res.headers.get("x-middleware-next") === "1";

  it("redirects anonymous pages to /login?next=…", async () => {
    const res = await run(`${ORIGIN}/sessions/abc?entry=e`);
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get("location") ?? "").pathname + new URL(res.headers.get("location") ?? "").search).toBe(
      `/login?next=${encodeURIComponent("/sessions/abc?entry=e")}`,
    );
  });

  it("answers 401 JSON to anonymous API calls and server actions", async () => {
    const api = await run(`${ORIGIN}/api/sessions`);
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ error: "Sign in required" });
    expect((await run(`${ORIGIN}/`, { method: "POST", headers: { "next-action": "abc123" } })).status).toBe(401);
  });

  it("does not run for the streaming upload routes (their handlers check), and runs for the rest", () => {
    const [pattern] = proxyConfig.matcher;
    const matches = (path: string) => new RegExp(`^${pattern}$`).test(path);
    expect(matches("/api/import")).toBe(false);
    expect(matches("/api/sessions/abc/files")).toBe(false);
    for (const p of ["/", "/sessions/abc", "/api/sessions", "/api/sessions/abc/files/download", "/api/chat", "/login"]) expect(matches(p)).toBe(true);
  });

  it("lets /login, /api/auth/*, and signed-in requests through; refuses forged cookies", async () => {
    expect(passes(await run(`${ORIGIN}/login`))).toBe(true);
    expect(passes(await run(`${ORIGIN}/api/auth/login`, { method: "POST" }))).toBe(true);
    const token = await signedInToken();
    expect(passes(await run(`${ORIGIN}/`, { token }))).toBe(true);
    expect(passes(await run(`${ORIGIN}/api/sessions`, { token }))).toBe(true);
    expect((await run(`${ORIGIN}/api/sessions`, { token: `${token.slice(0, -3)}AAA` })).status).toBe(401);
  });
});

describe("the checks inside routes and actions (defence in depth)", () => {
  it("route handlers answer 401 to anonymous requests before doing anything", async () => {
    for (const res of [
      await listSessions(new Request(`${ORIGIN}/api/sessions`)),
      await models(new Request(`${ORIGIN}/api/models`)),
      await stopChat(new Request(`${ORIGIN}/api/chat/stop`, { method: "POST", body: JSON.stringify({ id: "s" }) })),
      // The upload routes bypass the proxy (it would cut their bodies at 10 MB): their own check must hold.
      await importRoute(new Request(`${ORIGIN}/api/import?fileName=a.jsonl`, { method: "POST", body: "{}" })),
      await uploadFile(new Request(`${ORIGIN}/api/sessions/s/files?path=a.txt`, { method: "POST", body: "x" }), {
        params: Promise.resolve({ id: "s" }),
      }),
    ]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "Sign in required" });
    }
  });

  it("route handlers serve a signed-in request", async () => {
    const token = await signedInToken();
    const res = await stopChat(
      withCookie(`${ORIGIN}/api/chat/stop`, token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "s" }) }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, stopped: false });
  });

  it("server actions return forbidden without a session", async () => {
    jar.clear();
    expect(await createSession({})).toMatchObject({ ok: false, error: "forbidden" });
    expect(await setLabel({ sessionId: "s", entryId: "e", label: "x" })).toMatchObject({ ok: false, error: "forbidden" });
    jar.set("arbor_session", await signedInToken());
    expect(await requireUser()).toEqual({ ok: true, user: { id: "owner", sessionId: expect.any(String) } });
    jar.set("arbor_session", "v1.1.aaaaaaaaaaaaaaaaaaaaaa.forged");
    expect((await requireUser()).ok).toBe(false);
  });
});
