/**
 * Sign-in on and the database unreachable: the sign-in checks of routes and actions read the
 * database (lib/auth/guard.ts), so an outage there must give what every other database outage
 * gives — 503 with Retry-After and the plain message for routes, `{ ok: false, error: "failed" }`
 * for actions — never an empty 500. The "database" is a port where nothing listens.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DATABASE_UNAVAILABLE_MESSAGE, disconnectDb, useDatabase } from "@/lib/db";

vi.hoisted(() => {
  process.env.ARBOR_PASSWORD = "database down password";
  process.env.ARBOR_SESSION_SECRET = "database down secret";
});
const jar = vi.hoisted(() => new Map<string, string>());
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined) }),
}));

const { POST: login } = await import("./login/route");
const { POST: logout } = await import("./logout/route");
const { GET: listSessions } = await import("@/app/api/sessions/route");
const { POST: compactAgain } = await import("@/app/api/sessions/[id]/compactions/[entryId]/again/route");
const { renameSession } = await import("@/app/actions");
const { signOutOtherDevices } = await import("@/app/devices/actions");
const { authKeys } = await import("@/lib/auth/state");
const { signSessionToken } = await import("@/lib/auth/token");
const { sessionCookieName } = await import("@/lib/auth/cookie");

const ORIGIN = "http://127.0.0.1:3000";
let cookie = "";
beforeAll(async () => {
  // Port 9 (discard): every connection is refused at once.
  await useDatabase("postgresql://arbor_app:none@127.0.0.1:9/arbor");
  const { token } = signSessionToken({ key: (await authKeys()).sessionKey, now: Date.now(), ttlMs: 60_000 });
  cookie = `${sessionCookieName()}=${token}`;
  jar.set(sessionCookieName(), token);
});
afterAll(async () => {
  await disconnectDb();
  delete process.env.ARBOR_PASSWORD;
  delete process.env.ARBOR_SESSION_SECRET;
});

async function expectUnavailable(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await res.json()).toEqual({ error: DATABASE_UNAVAILABLE_MESSAGE, code: "database_unavailable" });
}

describe("sign-in on, database unreachable", () => {
  it("a signed-in request to a route gets 503 with Retry-After, not a 500", async () => {
    await expectUnavailable(await listSessions(new Request(`${ORIGIN}/api/sessions`, { headers: { cookie } })));
    const again = new Request(`${ORIGIN}/api/sessions/s1/compactions/e1/again`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: "{}",
    });
    await expectUnavailable(await compactAgain(again, { params: Promise.resolve({ id: "s1", entryId: "e1" }) }));
  });

  it("signing in and out answers 503 too", async () => {
    const headers = { "content-type": "application/json", origin: ORIGIN, host: "127.0.0.1:3000" };
    await expectUnavailable(await login(new Request(`${ORIGIN}/api/auth/login`, { method: "POST", headers, body: JSON.stringify({ password: "database down password" }) })));
    await expectUnavailable(await logout(new Request(`${ORIGIN}/api/auth/logout`, { method: "POST", headers: { ...headers, cookie }, body: "{}" })));
  });

  it("a server action returns the plain message as a failed result", async () => {
    expect(await renameSession({ id: "s1", title: "x" })).toEqual({ ok: false, error: "failed", message: DATABASE_UNAVAILABLE_MESSAGE });
    expect(await signOutOtherDevices()).toEqual({ ok: false, error: "failed", message: DATABASE_UNAVAILABLE_MESSAGE });
  });
});
