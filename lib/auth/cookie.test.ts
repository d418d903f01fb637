import { describe, expect, it } from "vitest";
import { clearedSessionCookie, cookieName, deviceCookie, isHttps, isSameOrigin, readCookie, SESSION_COOKIE, sessionCookie } from "./cookie";

const req = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe("the session cookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/, 7 days, Secure only over https", () => {
    expect(sessionCookie("t", { secure: false })).toEqual({
      name: "arbor_session",
      value: "t",
      httpOnly: true,
      sameSite: "lax",
      secure: false,
      path: "/",
      maxAge: 604800,
    });
    expect(sessionCookie("t", { secure: true }).secure).toBe(true);
    expect(clearedSessionCookie({ secure: false })).toMatchObject({ name: SESSION_COOKIE, value: "", maxAge: 0, httpOnly: true });
  });

  it("is read from a Cookie header among others", () => {
    expect(readCookie("a=1; arbor_session=v1.2.abc.sig; b=2", SESSION_COOKIE)).toBe("v1.2.abc.sig");
    expect(readCookie("arbor_sessionx=1", SESSION_COOKIE)).toBeUndefined();
    expect(readCookie(null, SESSION_COOKIE)).toBeUndefined();
  });

  it("knows https from the URL or x-forwarded-proto", () => {
    expect(isHttps(req("https://a.example/"))).toBe(true);
    expect(isHttps(req("http://a.example/"))).toBe(false);
    expect(isHttps(req("http://127.0.0.1/", { "x-forwarded-proto": "https" }))).toBe(true);
    expect(isHttps(req("https://a.example/", { "x-forwarded-proto": "http" }))).toBe(false);
  });
});

describe("cookie names", () => {
  it("end in the port when bound to loopback, so two local instances keep their own", () => {
    expect(cookieName("arbor_session", { port: 3000, host: "127.0.0.1" })).toBe("arbor_session_3000");
    expect(cookieName("arbor_session", { port: 3001, host: "localhost" })).toBe("arbor_session_3001");
    expect(cookieName("arbor_session", { port: 3000, host: "0.0.0.0" })).toBe("arbor_session");
    expect(cookieName("arbor_session", { port: undefined, host: "127.0.0.1" })).toBe("arbor_session");
  });
  it("the device cookie lives a year with the session cookie's attributes", () => {
    expect(deviceCookie("d", { secure: true })).toMatchObject({ name: "arbor_device", httpOnly: true, sameSite: "lax", secure: true, path: "/", maxAge: 31536000 });
  });
});

describe("request facts", () => {
  it("tells a cross-site request by its Origin", () => {
    expect(isSameOrigin(req("http://127.0.0.1:3000/api/auth/login", { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }))).toBe(true);
    expect(isSameOrigin(req("http://127.0.0.1:3000/api/auth/login", { host: "127.0.0.1:3000", origin: "https://evil.example" }))).toBe(false);
    expect(isSameOrigin(req("http://127.0.0.1:3000/api/auth/login", { host: "127.0.0.1:3000" }))).toBe(true);
    expect(isSameOrigin(req("http://127.0.0.1:3000/", { host: "127.0.0.1:3000", origin: "null" }))).toBe(false);
  });
});
