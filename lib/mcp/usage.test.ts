/**
 * The `usage` MCP tool through the SDK's own client, in-process, on a real database: one session's
 * tokens per model and the sums over all sessions, compared with figures counted here from the
 * generated entries themselves (each response with tokens is one call; docs/usage.md), the paging
 * and byte cap, and the refusals.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSession } from "@/lib/db";
import { createArborMcpServer } from "@/lib/mcp/server";
import { serializeSession } from "@/lib/session/file/jsonl";
import type { SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { generateSession } from "@/test/generators/session";
import { callJson, callText, type McpSessions, seedMcpSessions } from "@/test/mcp-sessions";

useTestDatabase();
let s: McpSessions;
const client = new Client({ name: "arbor-usage-test", version: "1.0.0" });

/** Sessions of other months, so the sums span several periods. */
const later = ["2025-02-03", "2025-03-04", "2025-04-05"].map((day, i) => generateSession({ seed: 60 + i, entries: 40, startTime: `${day}T10:00:00Z`, cwd: `/home/dev/usage-${i}` }));

async function* bytesOf(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

beforeAll(async () => {
  s = await seedMcpSessions();
  for (const g of later) await importSession({ source: bytesOf(serializeSession(g.header, g.entries)), fileName: `${g.header.id}.jsonl` });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createArborMcpServer().connect(a);
  await client.connect(b);
});
afterAll(() => client.close());

const positive = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : 0);

/** Calls and tokens per "provider/model", counted from the raw entries. */
function expectedByModel(entries: readonly SessionEntry[]): Map<string, { calls: number; tokens: number }> {
  const out = new Map<string, { calls: number; tokens: number }>();
  for (const e of entries) {
    if (e.type !== "message" || e.message.role !== "assistant") continue;
    const u = e.message.usage as unknown as Record<string, unknown>;
    const tokens = positive(u.input) + positive(u.output) + positive(u.cacheRead) + positive(u.cacheWrite);
    if (tokens === 0) continue;
    const key = `${e.message.provider}/${e.message.model}`;
    const m = out.get(key) ?? { calls: 0, tokens: 0 };
    m.calls += 1;
    m.tokens += tokens;
    out.set(key, m);
  }
  return out;
}

interface ModelItem {
  model: string;
  calls: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: string;
}

describe("usage", () => {
  it("is listed as a read-only tool with its schema", async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === "usage");
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(tool!.inputSchema.properties ?? {}).sort()).toEqual(["bucket", "by", "maxBytes", "offset", "session", "since", "timeZone", "until"]);
  });

  it("gives one session's calls and tokens per model, as its entries hold them", async () => {
    const r = await callJson<{ session: string; sum: { calls: number; tokens: number; costUsd: string }; items: ModelItem[] }>(client, "usage", { session: s.generated.id, maxBytes: 200_000 });
    const want = expectedByModel(s.generated.entries);
    expect(r.session).toBe(s.generated.id);
    expect(new Map(r.items.map((m) => [m.model, { calls: m.calls, tokens: m.input + m.output + m.cacheRead + m.cacheWrite }]))).toEqual(want);
    expect(r.sum.calls).toBe([...want.values()].reduce((n, m) => n + m.calls, 0));
    expect(r.sum.tokens).toBe([...want.values()].reduce((n, m) => n + m.tokens, 0));
    for (const m of r.items) expect(m.costUsd).toMatch(/^\d+\.\d{6}$/);
  });

  it("sums every session per period and group, and nothing in a range without usage", async () => {
    const all = [s.generated.entries, s.compacted.entries, s.secret.entries, s.long.entries, ...later.map((g) => g.entries)].map(expectedByModel);
    const calls = all.flatMap((m) => [...m.values()]).reduce((n, m) => n + m.calls, 0);
    const r = await callJson<{ sum: { calls: number }; items: { period: string; group: string; calls: number }[]; truncated: boolean }>(client, "usage", { by: "model", bucket: "month", timeZone: "UTC", maxBytes: 200_000 });
    expect(r.sum.calls).toBe(calls);
    expect(r.items.reduce((n, c) => n + c.calls, 0)).toBe(calls);
    expect(r.truncated).toBe(false);
    expect(new Set(r.items.map((c) => c.period))).toEqual(new Set(["2025-01-01", "2025-02-01", "2025-03-01", "2025-04-01"]));
    const none = await callJson<{ sum: { calls: number }; items: unknown[] }>(client, "usage", { since: "2099-01-01", until: "2099-12-31" });
    expect(none.sum.calls).toBe(0);
    expect(none.items).toEqual([]);
  });

  it("pages within the byte cap", async () => {
    const first = await callText(client, "usage", { bucket: "day", maxBytes: 1000 });
    expect(Buffer.byteLength(first.text)).toBeLessThanOrEqual(1000);
    const page = JSON.parse(first.text) as { items: unknown[]; truncated: boolean; next: number | null; total: number };
    expect(page.truncated).toBe(true);
    const rest = await callJson<{ offset: number; items: unknown[] }>(client, "usage", { bucket: "day", offset: page.next, maxBytes: 200_000 });
    expect(page.items.length + rest.items.length).toBe(page.total);
  });

  it("refuses unknown sessions, bad days, a reversed range and an unknown time zone", async () => {
    const refused = async (args: Record<string, unknown>) => {
      const r = await callText(client, "usage", args);
      expect(r.isError).toBe(true);
      return r.text;
    };
    expect(await refused({ session: "no-such-session" })).toMatch(/no-such-session/);
    expect(await refused({ since: "yesterday" })).toMatch(/since must be a day, YYYY-MM-DD/);
    expect(await refused({ since: "2026-02-01", until: "2026-01-01" })).toMatch(/until 2026-01-01 is before since 2026-02-01/);
    expect(await refused({ timeZone: "Mars/Olympus" })).toMatch(/not an IANA time zone/);
  });
});
