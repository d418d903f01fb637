/**
 * The sign-in limiter over real HTTP, with the launcher's socket-address preload
 * (scripts/peer-address.cjs): on Linux every 127.0.0.0/8 address reaches a server on the
 * loopback interface, so a local process could pick a new source address for each guess. All of
 * loopback (127/8, ::1 and their IPv4-mapped forms) is one client: its sixth attempt waits,
 * whichever loopback address it comes from.
 */
import { request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "@/test/db";
import { type RouteServer, startRouteServer } from "@/test/route-server";

vi.hoisted(() => {
  process.env.ARBOR_PASSWORD = "loopback test password";
  process.env.ARBOR_SESSION_SECRET = "loopback test secret";
});
createRequire(import.meta.url)("../../../scripts/peer-address.cjs");

// biome-ignore lint/correctness/useHookAtTopLevel: a vitest helper named like a hook, not a React hook
useTestDatabase();
const { POST: login } = await import("./login/route");

let server: RouteServer;
let port = 0;
beforeAll(async () => {
  // "::" takes IPv4 clients (seen as ::ffff:127.x.y.z) and IPv6 ones (::1) on one socket.
  server = await startRouteServer(login, { host: "::" });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.close();
  delete process.env.ARBOR_PASSWORD;
  delete process.env.ARBOR_SESSION_SECRET;
});

/** POSTs a sign-in from the given local (source) address; resolves with the status. */
function attempt(from: string, password: string): Promise<number> {
  const v6 = from.includes(":");
  const host = v6 ? "[::1]" : "127.0.0.1";
  const body = JSON.stringify({ password });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: v6 ? "::1" : "127.0.0.1",
        port,
        localAddress: from,
        method: "POST",
        path: "/api/auth/login",
        headers: { "content-type": "application/json", origin: `http://${host}:${port}`, host: `${host}:${port}`, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the sign-in limiter on loopback", () => {
  it("counts every loopback address as one client: five wrong guesses from five addresses, then each further one waits", async () => {
    const statuses: number[] = [];
    for (const from of ["127.0.0.2", "127.0.0.3", "127.1.2.3", "::1", "127.255.255.254"]) statuses.push(await attempt(from, "wrong"));
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // A sixth address, IPv4 or IPv6, even with the right password: the same client, now waiting.
    expect(await attempt("127.0.0.9", "wrong")).toBe(429);
    expect(await attempt("::1", "loopback test password")).toBe(429);
    expect(await attempt("127.42.0.1", "loopback test password")).toBe(429);
  });
});
