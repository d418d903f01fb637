import "server-only";
/**
 * The MCP endpoint's bearer tokens in PostgreSQL (table mcp_tokens; lib/mcp/tokens.ts decides what
 * they mean). Plain typed Prisma reads and writes.
 * Contract: a token is found by its sha256 only; the token itself is never stored or returned.
 * `useMcpToken` moves `lastUsedAt` forward at most once per `LAST_USED_STEP_MS`.
 */
import { getDb } from "../client";

export const LAST_USED_STEP_MS = 60_000;

export interface McpTokenRow {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const PUBLIC_FIELDS = { id: true, name: true, createdAt: true, lastUsedAt: true } as const;

export async function insertMcpToken(row: { id: string; name: string; tokenHash: string; now: Date }): Promise<McpTokenRow> {
  return getDb().mcpToken.create({ data: { id: row.id, name: row.name, tokenHash: row.tokenHash, createdAt: row.now }, select: PUBLIC_FIELDS });
}

/** Every token, newest first. */
export async function listMcpTokens(): Promise<McpTokenRow[]> {
  return getDb().mcpToken.findMany({ select: PUBLIC_FIELDS, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
}

export async function countMcpTokens(): Promise<number> {
  return getDb().mcpToken.count();
}

/** Deletes a token; false when there was none with this id. */
export async function deleteMcpToken(id: string): Promise<boolean> {
  return (await getDb().mcpToken.deleteMany({ where: { id } })).count > 0;
}

/** The token with this hash, or null; notes the use (see header). */
export async function useMcpToken({ tokenHash, now }: { tokenHash: string; now: Date }): Promise<McpTokenRow | null> {
  const db = getDb();
  const row = await db.mcpToken.findUnique({ where: { tokenHash }, select: PUBLIC_FIELDS });
  if (!row) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_STEP_MS) {
    await db.mcpToken.updateMany({ where: { id: row.id, lastUsedAt: row.lastUsedAt }, data: { lastUsedAt: now } });
    row.lastUsedAt = now;
  }
  return row;
}
