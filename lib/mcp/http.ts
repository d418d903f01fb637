/**
 * The MCP server over Streamable HTTP (docs/mcp.md "Over HTTP"), for the app's `/mcp` route.
 * Off unless a token is configured (ARBOR_MCP_TOKEN): then 404. Every request must carry
 * `Authorization: Bearer <token>`, on loopback too, else 401; the comparison takes the same time
 * whatever the guess. Stateless: each request gets its own server and transport (no MCP session
 * id), answers are plain JSON. The proxy's Host and Origin checks run before this (proxy.ts).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createArborMcpServer } from "./server";

const digest = (s: string) => createHash("sha256").update(s).digest();

function refuse(status: number, error: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error }, { status, headers: { "cache-control": "no-store", ...headers } });
}

/** Whether `request` carries `token` as its bearer token. */
export function hasBearer(request: Request, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

export async function handleMcpHttp(request: Request, token: string | undefined): Promise<Response> {
  if (!token) return refuse(404, "The MCP endpoint is off: set ARBOR_MCP_TOKEN to turn it on (docs/mcp.md).");
  if (!hasBearer(request, token)) return refuse(401, "MCP requires Authorization: Bearer <ARBOR_MCP_TOKEN>.", { "www-authenticate": 'Bearer realm="arbor-mcp"' });
  const server = createArborMcpServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // With JSON answers the response is complete here; the per-request server is done.
    if (request.method !== "GET") await server.close();
  }
}
