/**
 * The MCP endpoint over real HTTP (lib/mcp/http.ts, the handler of app/mcp/route.ts): off without
 * a token, unreachable without the bearer token even on loopback, and with it the SDK's own
 * Streamable HTTP client finds a session and reads what its compaction dropped.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleMcpHttp } from "@/lib/mcp/http";
import { useTestDatabase } from "@/test/db";
import { callJson, PLANTED_DROPPED, postInitialize, seedMcpSessions } from "@/test/mcp-sessions";
import { type RouteServer, startRouteServer } from "@/test/route-server";

useTestDatabase();
const TOKEN = "t0ken-for-the-mcp-endpoint-0123456789abcdef";
let on: RouteServer;
let off: RouteServer;

beforeAll(async () => {
  await seedMcpSessions();
  on = await startRouteServer((r) => handleMcpHttp(r, TOKEN));
  off = await startRouteServer((r) => handleMcpHttp(r, undefined));
});
afterAll(async () => {
  await on.close();
  await off.close();
});

const post = postInitialize;

describe("/mcp over HTTP", () => {
  it("is off (404) without a configured token", async () => {
    const r = await post(off.url, { authorization: `Bearer ${TOKEN}` });
    expect(r.status).toBe(404);
    expect((await r.json()).error).toMatch(/ARBOR_MCP_TOKEN/);
  });

  it("refuses a request without the token, or with another, on loopback too", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer wrong" }, { authorization: TOKEN }];
    for (const headers of attempts) {
      const r = await post(on.url, headers);
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("with the token, the SDK's client searches and reads what a compaction dropped", async () => {
    const client = new Client({ name: "arbor-http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${on.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      const found = await callJson<{ hits: { session: string }[] }>(client, "search_sessions", { query: "zebrafish" });
      expect(found.hits.map((h) => h.session)).toEqual(["mcp-compacted"]);
      const dropped = await callJson<{ items: { text: string; entry: string }[] }>(client, "compaction_dropped", { session: "mcp-compacted" });
      expect(dropped.items.map((f) => `${f.text}|${f.entry}`).sort()).toEqual(PLANTED_DROPPED.map((f) => `${f.text}|${f.entry}`).sort());
    } finally {
      await client.close();
    }
  });
});
