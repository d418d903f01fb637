import { describe, expect, it } from "vitest";
import { checkBind, isLoopbackHost } from "./bind";

describe("isLoopbackHost", () => {
  it.each(["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST", "app.localhost", "::ffff:127.0.0.1"])("%s is loopback", (h) => {
    expect(isLoopbackHost(h)).toBe(true);
  });
  it.each(["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "128.0.0.1", "127.0.0.256", "example.com", "localhost.example.com", ""])(
    "%s reaches the network",
    (h) => {
      expect(isLoopbackHost(h)).toBe(false);
    },
  );
});

describe("checkBind (the start-up rule of scripts/run-app.ts)", () => {
  it("allows loopback without a password, with sign-in off", () => {
    expect(checkBind({ host: "127.0.0.1", password: undefined })).toEqual({ ok: true, auth: false });
  });
  it("turns sign-in on whenever a password is set, on any address", () => {
    expect(checkBind({ host: "127.0.0.1", password: "pw" })).toEqual({ ok: true, auth: true });
    expect(checkBind({ host: "0.0.0.0", password: "pw" })).toEqual({ ok: true, auth: true });
  });
  it("refuses a network address without a password, saying what to do", () => {
    const result = checkBind({ host: "0.0.0.0", password: undefined });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain("Binding to 0.0.0.0 exposes Arbor to the network: set ARBOR_PASSWORD to require sign-in");
    expect(checkBind({ host: "::", password: "" }).ok).toBe(false);
  });
});
