/**
 * `npm run -s cli -- mcp` as an agent runs it (docs/mcp.md): the SDK's StdioClientTransport spawns
 * the CLI with the test database's DATABASE_URL, and the protocol on stdout stays clean.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@/test/cli-helpers";
import { useTestDatabase } from "@/test/db";
import { callJson, callText, type McpSessions, PLANTED_DROPPED, seedMcpSessions } from "@/test/mcp-sessions";

const db = useTestDatabase();
const client = new Client({ name: "arbor-stdio-test", version: "1.0.0" });
let stderr = "";

let s: McpSessions;

beforeAll(async () => {
  s = await seedMcpSessions();
  const transport = new StdioClientTransport({
    command: "npm",
    args: ["--prefix", PROJECT_ROOT, "run", "-s", "cli", "--", "mcp"],
    env: { ...(process.env as Record<string, string>), DATABASE_URL: db.url },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  await client.connect(transport);
}, 60_000);
afterAll(() => client.close());

describe("cli mcp over stdio", () => {
  it("finds a session by a word, reads it, and learns what its compaction dropped", async () => {
    const found = await callJson<{ hits: { session: string; entry: string }[] }>(client, "search_sessions", { query: "zebrafish" });
    expect(found.hits.map((h) => [h.session, h.entry])).toEqual([["mcp-compacted", "u2"]]);
    const read = await callJson<{ items: { id: string }[]; truncated: boolean }>(client, "read_session", { session: "mcp-compacted", fromEntry: "u2" });
    expect(read.items.map((e) => e.id)).toEqual(["u2", "a4", "k1", "u3", "a5"]);
    expect(read.truncated).toBe(false);
    const dropped = await callJson<{ items: { text: string; entry: string }[] }>(client, "compaction_dropped", { session: "mcp-compacted" });
    expect(dropped.items.map((f) => `${f.text}|${f.entry}`).sort()).toEqual(PLANTED_DROPPED.map((f) => `${f.text}|${f.entry}`).sort());
    expect(stderr).toContain("arbor mcp: serving on stdio");
  });

  it("keeps answers within the byte cap the caller gives and says what is left", async () => {
    const { text } = await callText(client, "read_session", { session: "mcp-compacted", maxBytes: 1000 });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
    expect(JSON.parse(text)).toMatchObject({ truncated: true, next: expect.any(Number) });
    const bad = await callText(client, "read_session", { session: "missing" });
    expect(bad).toEqual({ isError: true, text: 'unknown session "missing"' });
  });

  it("answers usage: the generated session's calls per model, summed as over HTTP and in-process", async () => {
    const r = await callJson<{ session: string; sum: { calls: number }; items: { model: string; calls: number }[] }>(client, "usage", { session: s.generated.id });
    const responses = s.generated.entries.filter((e) => e.type === "message" && e.message.role === "assistant" && e.message.usage.input + e.message.usage.output + e.message.usage.cacheRead + e.message.usage.cacheWrite > 0);
    expect(r.sum.calls).toBe(responses.length);
    expect(r.items.reduce((n, m) => n + m.calls, 0)).toBe(responses.length);
  });
});
