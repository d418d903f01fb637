/**
 * The attacker of e2e/security.spec.ts: a tiny HTTP server on 127.0.0.1 (another port of the
 * same host as the app under test), serving a blank page to attack from, and an image whose
 * fetches are counted. Opened as http://127.0.0.1:<port> it is the same *site* as the app on
 * another port; as http://localhost:<port>, another site. Plus the helpers that post from it:
 * a "simple" fetch (no preflight) and HTML form posts, with Playwright reading the status the
 * browser itself cannot see.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import { expect, type Page } from "@playwright/test";

/** 1×1 transparent PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

export interface Attacker {
  port: number;
  /** Paths (with query) of every image request received. */
  imageHits: string[];
  close: () => Promise<void>;
}

export async function startAttacker(port: number): Promise<Attacker> {
  const imageHits: string[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith("/p.png")) {
      imageHits.push(req.url);
      res.writeHead(200, { "content-type": "image/png" }).end(PNG);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>attacker</title><p>attacker page</p>");
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { port, imageHits, close: () => new Promise((r) => server.close(() => r())) };
}

export type Attack = "fetch text/plain" | "form urlencoded" | "form text/plain" | "form multipart";
export const ATTACKS: Attack[] = ["fetch text/plain", "form urlencoded", "form text/plain", "form multipart"];

/**
 * Sends `attack` from the attacker page already open in `page` to `url`; returns the status the
 * app answered (Playwright sees it even for an opaque no-cors response). `fields` are the form
 * fields (for a server action: `$ACTION_ID_<id>`).
 */
export async function postFrom(page: Page, attack: Attack, url: string, method = "POST", fields: Record<string, string> = { id: "x" }): Promise<number> {
  const answered = page.waitForResponse((r) => r.url() === url && r.request().method() === method, { timeout: 15_000 });
  if (attack === "fetch text/plain") {
    await page.evaluate(
      ({ url, method, body }) => {
        void fetch(url, { method, mode: method === "POST" ? "no-cors" : "cors", credentials: "include", headers: { "content-type": "text/plain" }, body }).catch(() => undefined);
      },
      { url, method, body: JSON.stringify(fields) },
    );
  } else {
    const enctype = { "form urlencoded": "application/x-www-form-urlencoded", "form text/plain": "text/plain", "form multipart": "multipart/form-data" }[attack];
    await page.evaluate(
      ({ url, enctype, fields }) => {
        const form = document.createElement("form");
        form.method = "POST";
        form.action = url;
        form.enctype = enctype;
        for (const [name, value] of Object.entries(fields)) {
          const input = document.createElement("input");
          input.type = "hidden";
          input.name = name;
          input.value = value;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      },
      { url, enctype, fields },
    );
  }
  const response = await answered;
  // A form post navigates the page: let that finish before the next goto.
  if (attack !== "fetch text/plain") await page.waitForURL((u) => u.href === url);
  return response.status();
}

/** Opens the attacker page at `origin` in `page` (again, after a form post navigated away). */
export async function openAttackerPage(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/attack`);
  await expect(page.getByText("attacker page")).toBeVisible();
}

/** A raw HTTP request with any Host header (fetch and Playwright may not let one forge it). */
export function rawRequest(port: number, opts: { method?: string; path: string; host: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method: opts.method ?? "GET", path: opts.path, headers: { ...opts.headers, host: opts.host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}
