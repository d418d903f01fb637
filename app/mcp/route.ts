/**
 * /mcp — Arbor's MCP server over Streamable HTTP (docs/mcp.md "Over HTTP"; lib/mcp/http.ts):
 * 404 unless ARBOR_MCP_TOKEN is set, 401 without `Authorization: Bearer <token>`. Read-only.
 * Public to the sign-in proxy (lib/auth/access.ts): the bearer token is its guard.
 */
import { env } from "@/lib/env";
import { handleMcpHttp } from "@/lib/mcp/http";

const handle = (request: Request) => handleMcpHttp(request, env.ARBOR_MCP_TOKEN);

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
