/**
 * Sessions for the MCP tests (lib/mcp): a generated session, a session whose compaction summary
 * leaves out known facts (the facts planted in its span, and which of them the summary carries),
 * and a session holding fake credentials (test/secret-session.ts). `seedMcpSessions` imports them
 * into the test database; the MCP client helpers read a tool's JSON answer.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { importSession } from "@/lib/db";
import { serializeSession } from "@/lib/session/file/jsonl";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { assistant, call, ent, linked, msg, toolResult, user } from "@/test/compaction-helpers";
import { generateSession } from "@/test/generators/session";
import { secretSession, secretSessionJsonl } from "@/test/secret-session";

export const CWD = "/home/dev/retry-app";

/** The dropped facts planted in the compacted span, with their entries (not in the summary). */
export const PLANTED_DROPPED = [
  { kind: "error", text: "Error: expected 3 retries, got 4", entry: "t2" },
  { kind: "instruction", text: "Don't touch lib/db/client.ts.", entry: "u1" },
  { kind: "todo", text: "Next: run the full suite.", entry: "a3" },
];

function compactedSession(): { header: SessionHeader; entries: SessionEntry[] } {
  const entries = linked(
    msg("u1", user("Please fix the retry loop in `runTurn`. Don't touch lib/db/client.ts.")),
    msg("a1", assistant("Reading it.", { calls: [call("c1", "read", { path: `${CWD}/lib/agent/turn.ts` })] })),
    msg("t1", toolResult("c1", "export function runTurn() {}", { toolName: "read" })),
    msg("a2", assistant("", { calls: [call("c2", "bash", { command: "npm test" })] })),
    msg("t2", { ...toolResult("c2", "Error: expected 3 retries, got 4\n    at turn.test.ts:12"), isError: true }),
    msg("a3", assistant("Looked into it.\nNext: run the full suite.")),
    msg("u2", user("Carry on with zebrafish checks.")),
    msg("a4", assistant("On it.")),
    // The summary carries the first instruction, the identifier and the file, nothing else.
    ent("compaction", "k1", {
      summary: "The user asked: Please fix the retry loop in `runTurn`. We read lib/agent/turn.ts where runTurn lives.",
      firstKeptEntryId: "u2",
      tokensBefore: 5000,
    }),
    msg("u3", user("Thanks, what next?")),
    msg("a5", assistant("Running the suite.")),
  );
  return { header: { type: "session", version: 3, id: "mcp-compacted", timestamp: "2026-01-03T10:00:00.000Z", cwd: CWD }, entries };
}

async function* bytesOf(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

export interface McpSessions {
  generated: { id: string; header: SessionHeader; entries: SessionEntry[] };
  compacted: { id: string; entries: SessionEntry[] };
  secret: ReturnType<typeof secretSession>;
  /** A long branch without compactions: its last turn sent more messages than the inspector's window. */
  long: { id: string; entries: SessionEntry[] };
}

export async function seedMcpSessions(): Promise<McpSessions> {
  const g = generateSession({ seed: 33, entries: 120, branches: 1, compactions: true, cwd: "/home/dev/gen-project" });
  await importSession({ source: bytesOf(serializeSession(g.header, g.entries)), fileName: "generated.jsonl" });
  const c = compactedSession();
  await importSession({ source: bytesOf(serializeSession(c.header, c.entries)), fileName: "compacted.jsonl" });
  const s = secretSession(7, "mcp-secret");
  await importSession({ source: bytesOf(secretSessionJsonl(s)), fileName: "secret.jsonl" });
  const l = generateSession({ seed: 34, entries: 1200 });
  await importSession({ source: bytesOf(serializeSession(l.header, l.entries)), fileName: "long.jsonl" });
  return { long: { id: l.header.id, entries: l.entries }, generated: { id: g.header.id, header: g.header, entries: g.entries }, compacted: { id: c.header.id, entries: c.entries }, secret: s };
}

/** Calls a tool; its JSON answer, or throws with the tool's error text. */
export async function callJson<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as { type: string; text: string }[])[0]?.text ?? "";
  if (r.isError) throw new Error(text);
  return JSON.parse(text) as T;
}

/** A tool's answer text, raw (for the byte cap). */
export async function callText(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = await client.callTool({ name, arguments: args });
  return { text: (r.content as { text: string }[])[0]?.text ?? "", isError: r.isError === true };
}
