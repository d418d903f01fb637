/**
 * The MCP endpoint's bearer tokens made on the devices page (docs/mcp.md "Over HTTP"): a token is
 * `arbor_mcp_` and 43 characters of base64url (256 random bits), shown once when it is made;
 * only its sha256 is kept (lib/db mcp_tokens), so neither the database nor the page can show it
 * again. Revoking deletes the row, and the next request with it is refused.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { countMcpTokens, deleteMcpToken, insertMcpToken, listMcpTokens, type McpTokenRow, useMcpToken } from "@/lib/db";

export const MCP_TOKEN_PREFIX = "arbor_mcp_";
export const MCP_TOKEN_NAME_MAX = 100;

export const mcpTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new token: the row as listed, and the token itself (returned this once). */
export async function makeMcpToken(name: string, now = new Date()): Promise<{ row: McpTokenRow; token: string }> {
  const token = `${MCP_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await insertMcpToken({ id: randomUUID(), name: name.slice(0, MCP_TOKEN_NAME_MAX), tokenHash: mcpTokenHash(token), now });
  return { row, token };
}

export const listMcpTokenRows = listMcpTokens;
export const revokeMcpToken = deleteMcpToken;

/** How /mcp checks the tokens kept in the database (lib/mcp/http.ts). */
export interface StoredMcpTokens {
  /** Whether any token exists (the endpoint is off with none and no ARBOR_MCP_TOKEN). */
  any(): Promise<boolean>;
  /** Whether `token` is one of them (its use is noted). */
  check(token: string): Promise<boolean>;
}

export const storedMcpTokens: StoredMcpTokens = {
  any: async () => (await countMcpTokens()) > 0,
  // Looked up by hash: the comparison is the database's index lookup of a sha256, which tells
  // nothing about how close a guess came.
  check: async (token) => token.startsWith(MCP_TOKEN_PREFIX) && (await useMcpToken({ tokenHash: mcpTokenHash(token), now: new Date() })) !== null,
};
