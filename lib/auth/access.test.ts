import { describe, expect, it } from "vitest";
import { decideAccess, isPublicPath, safeNextPath } from "./access";

const anon = (pathname: string, method = "GET", search = "") => decideAccess({ pathname, search, method, signedIn: false });

describe("decideAccess (proxy.ts with sign-in on)", () => {
  it("lets the login page, /api/auth/* and static assets through", () => {
    for (const p of ["/login", "/api/auth/login", "/api/auth/logout", "/_next/static/chunks/a.js", "/_next/image", "/favicon.ico"]) {
      expect(isPublicPath(p)).toBe(true);
      expect(anon(p, "POST")).toEqual({ kind: "allow" });
    }
    expect(isPublicPath("/login/x")).toBe(false);
    expect(isPublicPath("/api/authx")).toBe(false);
  });

  it("redirects an anonymous page request to /login, keeping where it was going", () => {
    expect(anon("/")).toEqual({ kind: "redirect", location: "/login" });
    expect(anon("/sessions/abc", "GET", "?entry=e1&_rsc=xyz")).toEqual({
      kind: "redirect",
      location: `/login?next=${encodeURIComponent("/sessions/abc?entry=e1")}`,
    });
  });

  it("answers 401 to anonymous API calls and server actions", () => {
    expect(anon("/api/sessions")).toEqual({ kind: "unauthorized" });
    expect(anon("/api")).toEqual({ kind: "unauthorized" });
    expect(anon("/api/chat", "POST")).toEqual({ kind: "unauthorized" });
    expect(anon("/", "POST")).toEqual({ kind: "unauthorized" }); // a server action
    expect(anon("/sessions/abc", "PUT")).toEqual({ kind: "unauthorized" });
  });

  it("answers 401 to an anonymous server action even on a public path (Next would forward it to its page)", () => {
    const action = (pathname: string, signedIn = false) => decideAccess({ pathname, search: "", method: "POST", signedIn, action: true });
    expect(action("/login")).toEqual({ kind: "unauthorized" });
    expect(action("/api/auth/login")).toEqual({ kind: "unauthorized" });
    expect(action("/login", true)).toEqual({ kind: "allow" });
  });

  it("lets a signed-in request through", () => {
    expect(decideAccess({ pathname: "/api/sessions", search: "", method: "GET", signedIn: true })).toEqual({ kind: "allow" });
  });
});

describe("safeNextPath", () => {
  it("keeps same-site paths", () => {
    expect(safeNextPath("/sessions/a?entry=b")).toBe("/sessions/a?entry=b");
    expect(safeNextPath("/")).toBe("/");
  });
  it("refuses anything that could leave the site or loop", () => {
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "/x\\y", "evil", "/a\nb", "", undefined, 42, "/login", "/login?next=/", "/api/auth/logout"]) {
      expect(safeNextPath(bad)).toBe("/");
    }
  });
});
