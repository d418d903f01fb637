/**
 * Sign-in you can revoke (README "Sign-in"), on a real database: sessions outlive restarts only until
 * signed out, a new password ends every cookie, "Signed-in devices" signs a device out, and the
 * limiter cannot be turned against the owner. Handlers are called as Next calls them;
 * `x-arbor-peer` stands for the socket address scripts/peer-address.cjs sets.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "@/test/db";

const PASSWORD = "sessions test password";
vi.hoisted(() => {
  process.env.ARBOR_PASSWORD = "sessions test password";
  process.env.ARBOR_SESSION_SECRET = "sessions test secret";
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
const { GET: listSessions } = await import("@/app/api/sessions/route");
const { signOutDevice, signOutOtherDevices } = await import("@/app/devices/actions");
const { listDevices } = await import("@/lib/auth/sessions");
const { requireUser } = await import("@/lib/auth/guard");
const { forgetAuthState } = await import("@/lib/auth/state");
const { formatPasswordHash, hashPassword } = await import("@/lib/auth/password");
const { env } = await import("@/lib/env");

afterAll(() => {
  delete process.env.ARBOR_PASSWORD;
  delete process.env.ARBOR_SESSION_SECRET;
});

const ORIGIN = "http://127.0.0.1:3000";
let peer = 0;
const nextPeer = () => `192.0.2.${++peer}`;

interface Attempt {
  password: string;
  peer?: string;
  device?: string;
  forwardedFor?: string;
  userAgent?: string;
}
const loginRequest = ({ password, peer = nextPeer(), device, forwardedFor, userAgent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36" }: Attempt) =>
  new Request(`${ORIGIN}/api/auth/login`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: ORIGIN,
      host: "127.0.0.1:3000",
      "x-arbor-peer": peer,
      "user-agent": userAgent,
      ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
      ...(device ? { cookie: `arbor_device=${device}` } : {}),
    },
    body: JSON.stringify({ password }),
  });

const cookieOf = (res: Response, name: string) => new RegExp(`${name}=([^;]*)`).exec(res.headers.get("set-cookie") ?? "")?.[1] ?? "";

async function signIn(attempt: Partial<Attempt> = {}) {
  const res = await login(loginRequest({ password: PASSWORD, ...attempt }));
  expect(res.status).toBe(200);
  return { session: cookieOf(res, "arbor_session"), device: cookieOf(res, "arbor_device") };
}

const api = (session: string) => listSessions(new Request(`${ORIGIN}/api/sessions`, { headers: { cookie: `arbor_session=${session}` } }));
const logoutWith = (session: string) =>
  logout(new Request(`${ORIGIN}/api/auth/logout`, { method: "POST", headers: { cookie: `arbor_session=${session}`, origin: ORIGIN, host: "127.0.0.1:3000" } }));

describe("sessions live in the database", () => {
  it("logout, then a restart: the old cookie stays dead; a cookie not signed out keeps working", async () => {
    const out = await signIn();
    const kept = await signIn();
    expect((await api(out.session)).status).toBe(200);
    expect((await logoutWith(out.session)).status).toBe(200);
    expect((await api(out.session)).status).toBe(401);
    forgetAuthState(); // a new process on the same database
    expect((await api(out.session)).status).toBe(401);
    expect((await api(kept.session)).status).toBe(200);
  });

  it("a new password ends every cookie issued before it", async () => {
    const before = await signIn();
    expect((await api(before.session)).status).toBe(200);
    env.ARBOR_PASSWORD = "a new password";
    forgetAuthState();
    try {
      expect((await api(before.session)).status).toBe(401);
      expect((await login(loginRequest({ password: PASSWORD }))).status).toBe(401);
      const res = await login(loginRequest({ password: "a new password" }));
      expect(res.status).toBe(200);
      expect((await api(cookieOf(res, "arbor_session"))).status).toBe(200);
    } finally {
      env.ARBOR_PASSWORD = PASSWORD;
      forgetAuthState();
    }
    expect((await api(before.session)).status).toBe(200); // the old password's key again
  });

  it("accepts ARBOR_PASSWORD_HASH instead of the plaintext", async () => {
    env.ARBOR_PASSWORD = undefined;
    env.ARBOR_PASSWORD_HASH = formatPasswordHash(await hashPassword("hashed only"));
    forgetAuthState();
    try {
      expect((await login(loginRequest({ password: "hashed only" }))).status).toBe(200);
      expect((await login(loginRequest({ password: PASSWORD }))).status).toBe(401);
    } finally {
      env.ARBOR_PASSWORD = PASSWORD;
      env.ARBOR_PASSWORD_HASH = undefined;
      forgetAuthState();
    }
  });
});

describe("Signed-in devices", () => {
  it("lists this device and signs another out: its cookie is refused on the next request", async () => {
    const phone = await signIn({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Version/18.0 Mobile Safari/604.1" });
    const laptop = await signIn();
    jar.set("arbor_session", laptop.session);
    const me = await requireUser();
    if (!me.ok) throw new Error("not signed in");
    const devices = await listDevices({ currentSessionId: me.user.sessionId });
    expect(devices.filter((d) => d.current)).toHaveLength(1);
    expect(devices.find((d) => d.current)).toMatchObject({ userAgent: expect.stringContaining("Chrome"), clientAddress: expect.stringMatching(/^192\.0\.2\./) });
    const phoneRow = devices.find((d) => d.userAgent.includes("iPhone"));
    expect(phoneRow).toBeDefined();

    expect((await api(phone.session)).status).toBe(200);
    expect(await signOutDevice({ id: phoneRow!.id })).toEqual({ ok: true, data: { id: phoneRow!.id } });
    expect((await api(phone.session)).status).toBe(401);
    expect(await signOutDevice({ id: phoneRow!.id })).toMatchObject({ ok: false, error: "not_found" });
    expect(await signOutDevice({ id: me.user.sessionId })).toMatchObject({ ok: false, error: "invalid_input" });
    expect(await signOutDevice({ id: "not a uuid" })).toMatchObject({ ok: false, error: "invalid_input" });

    const other = await signIn();
    const result = await signOutOtherDevices();
    expect(result.ok && result.data.signedOut).toBeGreaterThanOrEqual(1);
    expect((await api(other.session)).status).toBe(401);
    expect((await api(laptop.session)).status).toBe(200);
    expect(await listDevices({ currentSessionId: me.user.sessionId })).toHaveLength(1);
  });

  it("refuses its actions without a session", async () => {
    jar.clear();
    expect(await signOutOtherDevices()).toMatchObject({ ok: false, error: "forbidden" });
    expect(await signOutDevice({ id: crypto.randomUUID() })).toMatchObject({ ok: false, error: "forbidden" });
  });
});

describe("a limiter that strangers cannot use against the owner", () => {
  it("100 wrong passwords from rotating X-Forwarded-For values, then the owner's browser signs in at once", async () => {
    const local = "127.0.0.1";
    const owner = await signIn({ peer: local }); // an earlier sign-in left the device cookie
    expect(owner.device).toMatch(/^d1\./);
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      statuses.push((await login(loginRequest({ password: `guess ${i}`, peer: local, forwardedFor: `10.${i >> 8}.${i & 255}.7` }))).status);
    }
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5); // X-Forwarded-For gave them no fresh buckets
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(95);
    const started = Date.now();
    const res = await login(loginRequest({ password: PASSWORD, peer: local, device: owner.device }));
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    // A brand-new browser on the same address shares the strangers' bucket (the documented trade-off).
    expect((await login(loginRequest({ password: PASSWORD, peer: local }))).status).toBe(429);
  });

  it("60 parallel wrong attempts: all but 5 are refused before the password check", async () => {
    const peer = nextPeer();
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => login(loginRequest({ password: `burst ${i}`, peer })).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
  });

  it("believes X-Forwarded-For only from ARBOR_TRUSTED_PROXIES", async () => {
    env.ARBOR_TRUSTED_PROXIES = "10.9.0.0/16";
    try {
      for (let i = 0; i < 6; i++) await login(loginRequest({ password: "x", peer: "10.9.0.1", forwardedFor: "203.0.113.50" }));
      expect((await login(loginRequest({ password: PASSWORD, peer: "10.9.0.1", forwardedFor: "203.0.113.50" }))).status).toBe(429);
      expect((await login(loginRequest({ password: PASSWORD, peer: "10.9.0.1", forwardedFor: "203.0.113.51" }))).status).toBe(200);
    } finally {
      env.ARBOR_TRUSTED_PROXIES = undefined;
    }
  });
});
