/**
 * MCP tokens made and revoked on the devices page (app/devices/actions.ts), over real
 * HTTP against /mcp's handler (lib/mcp/http.ts) on the real database: a made token opens the
 * endpoint for the SDK's own client, only its hash is stored, revoking it closes the endpoint
 * again, ARBOR_MCP_TOKEN keeps working beside the stored tokens, and nothing gets in without one,
 * on loopback too.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { handleMcpHttp } from "@/lib/mcp/http";
import { useTestDatabase } from "@/test/db";
import { callJson, postInitialize, seedMcpSessions } from "@/test/mcp-sessions";
import { type RouteServer, startRouteServer } from "@/test/route-server";
import { makeMcpTokenAction, revokeMcpTokenAction } from "./actions";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();
const ENV_TOKEN = "env-token-for-the-mcp-endpoint-0123456789";
let stored: RouteServer;
let withEnv: RouteServer;

beforeAll(async () => {
  await seedMcpSessions();
  stored = await startRouteServer((r) => handleMcpHttp(r, undefined));
  withEnv = await startRouteServer((r) => handleMcpHttp(r, ENV_TOKEN));
});
afterAll(async () => {
  await stored.close();
  await withEnv.close();
});

const post = (base: string, token?: string) => postInitialize(base, token ? { authorization: `Bearer ${token}` } : {});

async function search(base: string, token: string): Promise<string[]> {
  const client = new Client({ name: "arbor-token-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    const found = await callJson<{ hits: { session: string }[] }>(client, "search_sessions", { query: "zebrafish" });
    return found.hits.map((h) => h.session);
  } finally {
    await client.close();
  }
}

describe("MCP tokens from the devices page", () => {
  it("the endpoint is off while there is no token at all", async () => {
    expect((await post(stored.url)).status).toBe(404);
  });

  it("a made token opens /mcp for the SDK's client; only its hash is stored", async () => {
    const made = await makeMcpTokenAction({ name: "Claude Code on the laptop" });
    if (!made.ok) throw new Error(made.message);
    expect(made.data.token).toMatch(/^arbor_mcp_[A-Za-z0-9_-]{43}$/);
    expect(await search(stored.url, made.data.token)).toEqual(["mcp-compacted"]);
    const rows = await getDb().mcpToken.findMany();
    expect(rows.map((r) => r.name)).toEqual(["Claude Code on the laptop"]);
    expect(JSON.stringify(rows)).not.toContain(made.data.token);
    expect(rows[0]!.lastUsedAt).not.toBeNull();
    // Without a token, or with another, nothing gets in (the server listens on loopback).
    for (const token of [undefined, "arbor_mcp_wrong", made.data.token.slice(0, -1)]) expect((await post(stored.url, token)).status).toBe(401);
    // ARBOR_MCP_TOKEN keeps working beside the stored tokens, and the stored token beside it.
    expect(await search(withEnv.url, ENV_TOKEN)).toEqual(["mcp-compacted"]);
    expect(await search(withEnv.url, made.data.token)).toEqual(["mcp-compacted"]);
  });

  it("a revoked token is refused at once; with none left the endpoint is off again", async () => {
    const a = await makeMcpTokenAction({ name: "Codex" });
    const b = await makeMcpTokenAction({ name: "pi" });
    if (!a.ok || !b.ok) throw new Error("could not make tokens");
    expect((await revokeMcpTokenAction({ id: a.data.id })).ok).toBe(true);
    expect((await post(stored.url, a.data.token)).status).toBe(401);
    expect((await post(stored.url, b.data.token)).status).toBe(200);
    expect(await revokeMcpTokenAction({ id: a.data.id })).toMatchObject({ ok: false, error: "not_found" });
    for (const row of await getDb().mcpToken.findMany()) expect((await revokeMcpTokenAction({ id: row.id })).ok).toBe(true);
    expect((await post(stored.url, b.data.token)).status).toBe(404);
  });

  it("refuses a token without a name, and a revoke of something that is not a token id", async () => {
    expect(await makeMcpTokenAction({ name: "  " })).toMatchObject({ ok: false, error: "invalid_input", message: /name for the token is required/ });
    expect(await makeMcpTokenAction({ name: "x".repeat(101) })).toMatchObject({ ok: false, error: "invalid_input" });
    expect(await makeMcpTokenAction({})).toMatchObject({ ok: false, error: "invalid_input" });
    expect(await revokeMcpTokenAction({ id: "nope" })).toMatchObject({ ok: false, error: "invalid_input", message: "Not a token id" });
  });
});
