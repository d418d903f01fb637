/** GET /api/sessions/[id]?format=html on the real database: an HTML attachment, 400 and 404. */
import { describe, expect, it } from "vitest";
import { appendEntries, createSession, loadEntries } from "@/lib/db";
import { assistantMsg, userMsg } from "@/test/session-factories";
import { useTestDatabase } from "@/test/db";
import { GET } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const req = (url: string) => new Request(`http://localhost${url}`);

describe("GET /api/sessions/[id]?format=html", () => {
  it("returns the session as a self-contained HTML attachment", async () => {
    const { id } = await createSession({ title: "Export <me>", header: { timestamp: "2025-03-04T05:06:07.089Z" } });
    await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("hello </script>") }, { type: "message", message: assistantMsg("hi") }] });
    const res = await GET(req(`/api/sessions/${id}?format=html`), params(id));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-disposition")).toContain(`attachment; filename="2025-03-04T05-06-07-089Z_${id}.html"`);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<h1>Export &lt;me&gt;</h1>");
    const block = /<script id="session-data" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1] ?? "null";
    expect((JSON.parse(block) as { entries: unknown[] }).entries).toEqual(await loadEntries({ sessionId: id }));
  });

  it("rejects an unknown format and an unknown session", async () => {
    const { id } = await createSession({});
    expect((await GET(req(`/api/sessions/${id}?format=pdf`), params(id))).status).toBe(400);
    expect((await GET(req("/api/sessions/nope?format=html"), params("nope"))).status).toBe(404);
  });
});
