/**
 * POST /api/import with Gemini CLI and opencode files, over real HTTP (a node:http server in the
 * test's process, test/route-server.ts): the done event names the format, and a document that is
 * not valid JSON ends the stream with the located error. Real handler, real database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as importPost } from "@/app/api/import/route";
import type { ImportDoneEvent, ImportErrorEvent, ImportEvent } from "@/lib/types/import-events";
import { useTestDatabase } from "@/test/db";
import { generateGeminiSession } from "@/test/generators/gemini";
import { generateOpencodeSession } from "@/test/generators/opencode";
import { type RouteServer, startRouteServer } from "@/test/route-server";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

let server: RouteServer;
beforeAll(async () => {
  server = await startRouteServer((req) => importPost(req));
});
afterAll(async () => {
  await server.close();
});

async function post(fileName: string, body: string): Promise<ImportEvent> {
  const res = await fetch(`${server.url}/route?fileName=${encodeURIComponent(fileName)}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body,
  });
  expect(res.status).toBe(200);
  return JSON.parse((await res.text()).trim().split("\n").at(-1)!) as ImportEvent;
}

describe("POST /api/import of single-document formats", () => {
  it("imports a Gemini CLI recording and an opencode export, naming each format", async () => {
    const gemini = generateGeminiSession({ seed: 41, turns: 3, summary: "Over HTTP" });
    const opencode = generateOpencodeSession({ seed: 42, turns: 2 });
    const a = (await post("session-2026-01-10T20-25-abcdef12.json", gemini.text)) as ImportDoneEvent;
    expect(a).toMatchObject({ type: "done", sessionId: gemini.sessionId, title: "Over HTTP", format: "gemini", formatLabel: "Gemini CLI session", records: gemini.records });
    const b = (await post("export.json", opencode.text)) as ImportDoneEvent;
    expect(b).toMatchObject({ type: "done", sessionId: opencode.sessionId, title: opencode.title, format: "opencode", formatLabel: "opencode session", records: opencode.records });
  });

  it("ends with the line and column of a Gemini CLI file that is not valid JSON", async () => {
    const text = generateGeminiSession({ seed: 43, turns: 2 }).text.replace('"type": "user"', '"type": user');
    const line = text.split("\n").findIndex((l) => l.includes('"type": user')) + 1;
    const event = (await post("broken.json", text)) as ImportErrorEvent;
    expect(event).toMatchObject({ type: "error", code: "invalid_entry" });
    expect(event.message).toMatch(new RegExp(`^broken\\.json:${line}:\\d+: the Gemini CLI session is not valid JSON \\(.+\\); nothing was imported$`));
  });
});
