/**
 * Secrets through the session routes on the real database (docs/secrets.md): the list, and every
 * way out masked by default — JSONL and HTML exports — with the originals only on request; the
 * original file's count before "Download original".
 */
import { describe, expect, it } from "vitest";
import { importSession, listSecretFindings } from "@/lib/db";
import { useTestDatabase } from "@/test/db";
import { chunked } from "@/test/import-helpers";
import { secretSession, secretSessionJsonl } from "@/test/secret-session";
import { GET as getOriginal } from "../original/route";
import { GET as getSession } from "../route";
import { GET as getSecrets } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const req = (url: string) => new Request(`http://localhost${url}`);

/** The page's data block (the entries the page shows), as JSON text. */
function dataOf(html: string): string {
  const block = /<script id="session-data" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1] ?? "null";
  return JSON.stringify(JSON.parse(block));
}

async function imported(seed: number) {
  const s = secretSession(seed, `route-secrets-${seed}`);
  const { sessionId } = await importSession({ source: chunked(secretSessionJsonl(s)), fileName: "secrets.jsonl" });
  return { s, id: sessionId };
}

describe("GET /api/sessions/[id]/secrets", () => {
  it("lists the findings (masked) in file order; 404 for an unknown session", async () => {
    const { s, id } = await imported(31);
    const res = await getSecrets(req(`/api/sessions/${id}/secrets`), params(id));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { count: number; findings: { entryId: string; kind: string; masked: string }[] };
    expect(body.count).toBe(s.expected.length);
    expect(body.findings.map((f) => f.entryId)).toEqual(s.expected.map((p) => p.entryId));
    const text = JSON.stringify(body);
    for (const p of s.expected) expect(text).not.toContain(p.value);
    expect((await getSecrets(req("/api/sessions/nope/secrets"), params("nope"))).status).toBe(404);
  });
});

describe("exports mask secrets unless the originals are asked for", () => {
  it("JSONL: masked by default, valid and re-importable (with nothing left to find); ?secrets=include keeps them", async () => {
    const { s, id } = await imported(32);
    const masked = await (await getSession(req(`/api/sessions/${id}?format=jsonl`), params(id))).text();
    for (const p of s.expected) expect(masked, p.rule).not.toContain(p.value);
    const lines = masked.trimEnd().split("\n");
    expect(lines).toHaveLength(s.entries.length + 1);
    expect(masked).toContain("ghp_********");
    const again = await importSession({ source: chunked(masked), fileName: "masked.jsonl", asCopy: true });
    expect(again.entryCount).toBe(s.entries.length);
    expect((await listSecretFindings({ sessionId: again.sessionId })).count).toBe(0);

    const full = await (await getSession(req(`/api/sessions/${id}?format=jsonl&secrets=include`), params(id))).text();
    for (const p of s.expected) expect(full, p.rule).toContain(JSON.stringify(p.value).slice(1, -1));
  });

  it("HTML: masked by default; ?secrets=include keeps them; a bad value is a 400", async () => {
    const { s, id } = await imported(33);
    const html = await (await getSession(req(`/api/sessions/${id}?format=html`), params(id))).text();
    expect(html).toMatch(/^<!doctype html>/);
    const masked = dataOf(html);
    expect(masked).toContain("ghp_********");
    for (const p of s.expected) {
      expect(masked, p.rule).not.toContain(JSON.stringify(p.value).slice(1, -1));
      const middle = p.value.slice(Math.max(0, p.value.length / 2 - 8), p.value.length / 2 + 8);
      expect(html, p.rule).not.toContain(middle);
    }
    const full = dataOf(await (await getSession(req(`/api/sessions/${id}?format=html&secrets=include`), params(id))).text());
    for (const p of s.expected) expect(full, p.rule).toContain(JSON.stringify(p.value).slice(1, -1));
    expect((await getSession(req(`/api/sessions/${id}?format=html&secrets=yes`), params(id))).status).toBe(400);
  });
});

describe("GET /api/sessions/[id]/original?count=secrets", () => {
  it("says how many secrets the original file holds; the download itself is the file as it was", async () => {
    const { s, id } = await imported(34);
    const res = await getOriginal(req(`/api/sessions/${id}/original?count=secrets`), params(id));
    expect(await res.json()).toEqual({ secrets: s.expected.length });
    const file = await (await getOriginal(req(`/api/sessions/${id}/original`), params(id))).text();
    expect(file).toBe(secretSessionJsonl(s));
    expect((await getOriginal(req(`/api/sessions/${id}/original?count=lines`), params(id))).status).toBe(400);
  });
});
