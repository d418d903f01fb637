/**
 * The CSRF checks shared by e2e/security.spec.ts (no password) and e2e/security-auth.spec.ts
 * (signed in on the password app): every mutating route handler — found on disk, so a new one
 * is covered without editing a list — and a real server action are posted to from attacker
 * pages and must answer 403; the same requests from the app's own origin must not.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { ATTACKS, openAttackerPage, postFrom } from "./attacker";

export interface MutatingRoute {
  /** URL path with the dynamic segments filled in. */
  path: string;
  method: string;
}

/** Every exported POST/PUT/PATCH/DELETE of app/api/**\/route.ts, with `[id]` = sessionId. */
export function mutatingRoutes(sessionId: string): MutatingRoute[] {
  const root = path.join(process.cwd(), "app", "api");
  const found: MutatingRoute[] = [];
  for (const rel of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    if (path.basename(rel) !== "route.ts") continue;
    const source = readFileSync(path.join(root, rel), "utf8");
    const dir = path.dirname(rel).split(path.sep).join("/");
    const urlPath = `/api/${dir}`.replace("[id]", encodeURIComponent(sessionId)).replace(/\[[^\]]+\]/g, "x");
    for (const m of source.matchAll(/export\s+(?:async\s+function|const)\s+(POST|PUT|PATCH|DELETE)\b/g)) {
      // The upload routes take their parameters in the query.
      const query = dir === "import" ? "?fileName=a.jsonl" : dir.endsWith("/files") ? "?path=csrf.txt" : "";
      found.push({ path: `${urlPath}${query}`, method: m[1]! });
    }
  }
  expect(found.length, "mutating routes found under app/api").toBeGreaterThanOrEqual(8);
  return found;
}

export interface CapturedAction {
  /** The page path the action was posted to. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Clicks "New session" on the home page and records the server action request it makes. */
export async function captureCreateSessionAction(page: Page, base: string): Promise<CapturedAction> {
  await page.goto(`${base}/`);
  const sent = page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined);
  await page.getByRole("button", { name: "New session" }).click();
  const request = await sent;
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  const h = request.headers();
  const keep = ["next-action", "next-router-state-tree", "content-type", "accept"];
  return {
    path: new URL(request.url()).pathname,
    headers: Object.fromEntries(keep.filter((k) => h[k] !== undefined).map((k) => [k, h[k]!])),
    body: request.postData() ?? "",
  };
}

export interface CsrfCheck {
  page: Page;
  /** A request context carrying the victim's cookies (page.context().request when signed in). */
  request: APIRequestContext;
  base: string;
  sessionId: string;
  action: CapturedAction;
  attackerOrigins: string[];
}

export async function assertCsrfRefused({ page, request, base, sessionId, action, attackerOrigins }: CsrfCheck): Promise<void> {
  const routes = mutatingRoutes(sessionId);
  const actionId = action.headers["next-action"]!;
  for (const origin of attackerOrigins) {
    // Straight from the server's point of view: a foreign Origin (any method), or Sec-Fetch-Site.
    for (const r of routes) {
      const variants: Record<string, string>[] = [{ origin }, { "sec-fetch-site": "same-site" }];
      for (const headers of variants) {
        const res = await request.fetch(`${base}${r.path}`, { method: r.method, headers: { ...headers, "content-type": "application/json" }, data: "{}" });
        expect(res.status(), `${r.method} ${r.path} with ${JSON.stringify(headers)}`).toBe(403);
        expect(((await res.json()) as { error: string }).error).toMatch(/^Cross-site request refused/);
      }
    }
    const replay = await request.post(`${base}${action.path}`, { headers: { ...action.headers, origin }, data: action.body });
    expect(replay.status(), `server action replayed from ${origin}`).toBe(403);

    // From a real page on that origin: fetch and forms, as a browser sends them.
    for (const attack of ATTACKS) {
      for (const r of routes) {
        if (r.method !== "POST" && attack !== "fetch text/plain") continue;
        await openAttackerPage(page, origin);
        expect(await postFrom(page, attack, `${base}${r.path}`, r.method), `${attack} from ${origin} to ${r.method} ${r.path}`).toBe(403);
      }
      await openAttackerPage(page, origin);
      // A form post naming the action (how progressive enhancement submits actions without JS).
      expect(await postFrom(page, attack, `${base}${action.path}`, "POST", { [`$ACTION_ID_${actionId}`]: "" }), `${attack} action from ${origin}`).toBe(403);
    }
  }

  // The same requests from the app's own origin are not refused by the guard.
  const own = await request.post(`${base}${action.path}`, { headers: { ...action.headers, origin: base }, data: action.body });
  expect(own.status(), "server action from the app's own origin").toBe(200);
  const stop = await request.post(`${base}/api/chat/stop`, { headers: { origin: base, "content-type": "application/json" }, data: JSON.stringify({ id: sessionId }) });
  expect(stop.status()).toBeLessThan(300);
  const upload = await request.post(`${base}/api/sessions/${sessionId}/files?path=own.txt`, { headers: { origin: base, "content-type": "application/octet-stream" }, data: "mine" });
  expect(upload.status()).toBe(201);
  // text/plain from the app's own origin is still refused by type (415), never run.
  const text = await request.post(`${base}/api/chat`, { headers: { origin: base, "content-type": "text/plain" }, data: "{}" });
  expect(text.status()).toBe(415);
}
