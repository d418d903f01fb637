/** The pure Host, Origin and content-type decisions (lib/http/request-guard.ts, README "Security"). */
import { describe, expect, it } from "vitest";
import { parseAllowedHosts } from "@/lib/env";
import { parseHost } from "@/lib/host-name";
import { checkContentType, checkHost, checkOrigin, effectiveHost } from "./request-guard";

const policy = { port: 3000, allowed: parseAllowedHosts("arbor.example, lan-box:8443") };

describe("parseHost / parseAllowedHosts", () => {
  it("splits name and port, lower-cased, IPv6 in brackets", () => {
    expect(parseHost("LocalHost:3000")).toEqual({ name: "localhost", port: 3000 });
    expect(parseHost("[::1]:3000")).toEqual({ name: "[::1]", port: 3000 });
    expect(parseHost("arbor.example")).toEqual({ name: "arbor.example" });
  });
  it("refuses what is not a host", () => {
    for (const bad of ["", "http://x", "a/b", "x:0", "x:70000", "a b", "[::1"]) expect(parseHost(bad)).toBeUndefined();
  });
  it("names a bad ARBOR_ALLOWED_HOSTS entry", () => {
    expect(() => parseAllowedHosts("ok.example, https://bad.example")).toThrow('ARBOR_ALLOWED_HOSTS: "https://bad.example" is not a host name or host:port');
    expect(parseAllowedHosts(" , a.example ,")).toEqual([{ name: "a.example" }]);
  });
});

describe("checkHost (DNS rebinding)", () => {
  it("accepts the loopback names on the served port", () => {
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "LOCALHOST:3000"]) expect(checkHost(host, policy)).toBeUndefined();
  });
  it("refuses loopback names on another port, and without a port", () => {
    expect(checkHost("127.0.0.1:3001", policy)?.status).toBe(421);
    expect(checkHost("localhost", policy)?.status).toBe(421);
  });
  it("accepts loopback names on any port when the port is unknown", () => {
    expect(checkHost("127.0.0.1:4567", { allowed: [] })).toBeUndefined();
  });
  it("refuses foreign and rebinding names with a message naming ARBOR_ALLOWED_HOSTS", () => {
    for (const host of ["evil.example", "rebind.attacker.test:3000", "app.localhost:3000", "127.0.0.2:3000", "0.0.0.0:3000"]) {
      const refusal = checkHost(host, policy);
      expect(refusal).toMatchObject({ status: 421, code: "misdirected" });
      expect(refusal?.error).toContain("ARBOR_ALLOWED_HOSTS");
    }
    expect(checkHost(null, policy)?.error).toContain("no Host header");
  });
  it("accepts ARBOR_ALLOWED_HOSTS: a bare name on any port, name:port on that port only", () => {
    expect(checkHost("arbor.example", policy)).toBeUndefined();
    expect(checkHost("arbor.example:8080", policy)).toBeUndefined();
    expect(checkHost("lan-box:8443", policy)).toBeUndefined();
    expect(checkHost("lan-box:8444", policy)?.status).toBe(421);
  });
  it("refuses a forged X-Forwarded-Host that names someone else", () => {
    expect(checkHost("127.0.0.1:3000", policy, "evil.example")?.status).toBe(421);
    expect(checkHost("127.0.0.1:3000", policy, "arbor.example, 10.0.0.1")).toBeUndefined();
    expect(effectiveHost("127.0.0.1:3000", "arbor.example, 10.0.0.1")).toBe("arbor.example");
    expect(effectiveHost("127.0.0.1:3000", null)).toBe("127.0.0.1:3000");
  });
});

describe("checkOrigin (CSRF)", () => {
  const post = (origin: string | null, secFetchSite: string | null = null, host = "127.0.0.1:3000") => checkOrigin({ method: "POST", host, origin, secFetchSite });
  it("lets safe methods through whatever their origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS", "get"]) expect(checkOrigin({ method, host: "127.0.0.1:3000", origin: "https://evil.example", secFetchSite: "cross-site" })).toBeUndefined();
  });
  it("accepts the page's own origin (http, or https behind a TLS proxy)", () => {
    expect(post("http://127.0.0.1:3000")).toBeUndefined();
    expect(post("https://arbor.example", null, "arbor.example")).toBeUndefined();
    expect(post("http://LOCALHOST:3000", null, "localhost:3000")).toBeUndefined();
  });
  it("refuses another site, another port of the same host, another loopback name, and null", () => {
    for (const origin of ["https://evil.example", "http://127.0.0.1:3001", "http://localhost:3000", "null", "file://", "not a url"]) {
      expect(post(origin)).toMatchObject({ status: 403, code: "forbidden_origin" });
    }
    expect(checkOrigin({ method: "DELETE", host: "127.0.0.1:3000", origin: "http://127.0.0.1:9999", secFetchSite: "same-site" })?.status).toBe(403);
  });
  it("without Origin, goes by Sec-Fetch-Site", () => {
    expect(post(null, "same-origin")).toBeUndefined();
    expect(post(null, "same-site")?.status).toBe(403);
    expect(post(null, "cross-site")?.status).toBe(403);
    expect(post(null, "none")?.status).toBe(403);
  });
  it("lets a request with neither header through (curl, scripts: a browser always sends Origin cross-origin)", () => {
    expect(post(null, null)).toBeUndefined();
  });
});

describe("checkContentType", () => {
  const json = ["application/json"];
  it("accepts the listed type, with parameters, in any case", () => {
    expect(checkContentType("application/json", json)).toBeUndefined();
    expect(checkContentType("Application/JSON; charset=utf-8", json)).toBeUndefined();
  });
  it("refuses text, forms and a missing type with 415 naming the type to send", () => {
    expect(checkContentType("text/plain;charset=UTF-8", json)).toEqual({
      status: 415,
      code: "unsupported_media_type",
      error: "The request body must be sent as content-type: application/json, not text/plain",
    });
    expect(checkContentType("multipart/form-data; boundary=x", ["application/octet-stream"], "The uploaded file")?.error).toBe(
      "The uploaded file must be sent as content-type: application/octet-stream, not multipart/form-data",
    );
    expect(checkContentType(null, json)?.error).toBe("The request body must be sent as content-type: application/json; it was sent without a content type");
    expect(checkContentType("application/x-www-form-urlencoded", json)?.status).toBe(415);
  });
});
