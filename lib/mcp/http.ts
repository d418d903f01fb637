/**
 * The MCP server over Streamable HTTP (docs/mcp.md "Over HTTP"), for the app's `/mcp` route.
 * Off (404) unless there is a token: ARBOR_MCP_TOKEN, or one made on the devices page
 * (lib/mcp/tokens.ts, kept hashed in the database). Every request must carry
 * `Authorization: Bearer <token>` with one of them, on loopback too, else 401; the comparison
 * with ARBOR_MCP_TOKEN takes the same time whatever the guess. Stateless: each request gets its own server and transport (no MCP session
 * id), answers are plain JSON. The proxy's Host and Origin checks run before this (proxy.ts).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createArborMcpServer } from "./server";
import { type StoredMcpTokens, storedMcpTokens } from "./tokens";

const digest = (s: string) => createHash("sha256").update(s).digest();

function refuse(status: number, error: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error }, { status, headers: { "cache-control": "no-store", ...headers } });
}

/** The bearer token `request` carries, if any. */
function bearerOf(request: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
}

/** Whether `request` carries `token` as its bearer token. */
export function hasBearer(request: Request, token: string): boolean {
  const bearer = bearerOf(request);
  return bearer !== undefined && timingSafeEqual(digest(bearer), digest(token));
}

/** `token`: ARBOR_MCP_TOKEN; `stored`: the tokens made on the devices page. */
export async function handleMcpHttp(request: Request, token: string | undefined, stored: StoredMcpTokens = storedMcpTokens): Promise<Response> {
  if (!token && !(await stored.any())) return refuse(404, "The MCP endpoint is off: make a token on the devices page (/devices) or set ARBOR_MCP_TOKEN (docs/mcp.md).");
  const bearer = bearerOf(request);
  const allowed = bearer !== undefined && ((token !== undefined && hasBearer(request, token)) || (await stored.check(bearer)));
  if (!allowed) return refuse(401, "MCP requires Authorization: Bearer <token> (a token from the devices page, or ARBOR_MCP_TOKEN).", { "www-authenticate": 'Bearer realm="arbor-mcp"' });
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
