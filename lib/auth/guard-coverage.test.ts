/**
 * Every route handler, server action and page checks the session itself (lib/auth/guard.ts),
 * not only proxy.ts: a new handler without the check fails here. Public by design: /login and
 * /api/auth/*; /mcp is guarded by its bearer token instead of a cookie, checked below.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const appDir = path.resolve(import.meta.dirname, "../../app");
const files = (readdirSync(appDir, { recursive: true }) as string[]).map((f) => f.split(path.sep).join("/"));
const isPublic = (f: string) => f.startsWith("api/auth/") || f.startsWith("login/") || f === "mcp/route.ts";

it("app/mcp/route.ts answers only through handleMcpHttp, which requires the bearer token (lib/mcp/http.test.ts)", () => {
  const source = readFileSync(path.join(appDir, "mcp/route.ts"), "utf8");
  expect(source).toMatch(/handleMcpHttp\(request, env\.ARBOR_MCP_TOKEN\)/);
  expect([...source.matchAll(/^export const (\w+) = handle;$/gm)].map((m) => m[1])).toEqual(["GET", "POST", "DELETE"]);
  expect(source).not.toMatch(/^export (async )?function/m);
});

/** The text of each exported function, keyed by name. */
function exportedFunctions(source: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /^export (?:default )?async function (\w+)\s*\(/gm;
  const starts = [...source.matchAll(re)];
  starts.forEach((m, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.index : source.length;
    out.set(m[1]!, source.slice(m.index, end));
  });
  return out;
}

const cases = (suffix: string) => files.filter((f) => f.endsWith(suffix) && !isPublic(f));

describe("access checks inside the app", () => {
  it.each(cases("route.ts"))("app/%s: every handler awaits refuseAnonymous(request)", (file) => {
    const fns = exportedFunctions(readFileSync(path.join(appDir, file), "utf8"));
    expect(fns.size).toBeGreaterThan(0);
    for (const [name, body] of fns) expect(body, `${file} ${name}`).toMatch(/await refuseAnonymous\(request\)/);
  });

  it.each(cases("actions.ts"))("app/%s: every action calls requireUser()", (file) => {
    const fns = exportedFunctions(readFileSync(path.join(appDir, file), "utf8"));
    expect(fns.size).toBeGreaterThan(0);
    for (const [name, body] of fns) expect(body, `${file} ${name}`).toMatch(/await requireUser\(\)/);
  });

  it.each(cases("page.tsx"))("app/%s: the page calls requirePageUser()", (file) => {
    expect(readFileSync(path.join(appDir, file), "utf8")).toMatch(/await requirePageUser\(/);
  });
});
