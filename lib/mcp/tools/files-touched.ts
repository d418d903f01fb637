/**
 * `files_touched`: which sessions and turns read or modified a path, from the tool calls'
 * file operations (lib/compaction/file-ops.ts: the `path` argument of read, write and edit calls,
 * session-engine.md §10). A path matches when it is the one given or ends with "/" + it. Scans
 * the session list newest first, SCAN sessions per call; `next` is the cursor to continue.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listSessions, loadEntries } from "@/lib/db";
import { createFileOps, extractFileOpsFromMessage } from "@/lib/compaction/file-ops";
import { answer, DEFAULT_MAX_BYTES, maxBytesSchema, ToolInputError } from "../bounded";
import { sessionMeta } from "../sessions";

const SCAN = 20;

interface Touch {
  session: string;
  title: string | null;
  /** The assistant entry whose tool call touched the path. */
  entry: string;
  timestamp: string;
  path: string;
  op: "read" | "write" | "edit";
}

const inputSchema = {
  path: z.string().min(1).max(1000).describe("A file path, absolute or the end of one (e.g. src/app.ts)."),
  session: z.string().min(1).optional().describe("Only this session."),
  cursor: z.string().optional().describe("The `next` of a previous answer."),
  maxBytes: maxBytesSchema,
};

async function touchesIn(session: { id: string; title: string | null }, wanted: string): Promise<Touch[]> {
  const out: Touch[] = [];
  for (const e of await loadEntries({ sessionId: session.id })) {
    if (e.type !== "message" || e.message.role !== "assistant") continue;
    const ops = createFileOps();
    extractFileOpsFromMessage(e.message, ops);
    for (const op of ["read", "written", "edited"] as const) {
      for (const p of ops[op]) {
        if (p === wanted || p.endsWith(`/${wanted}`)) {
          out.push({ session: session.id, title: session.title, entry: e.id, timestamp: e.timestamp, path: p, op: op === "read" ? "read" : op === "written" ? "write" : "edit" });
        }
      }
    }
  }
  return out;
}

export function registerFilesTouched(server: McpServer): void {
  server.registerTool(
    "files_touched",
    {
      title: "Sessions that touched a file",
      description:
        "Which sessions and turns (assistant entries) read, wrote or edited a path, newest session first. Scans a batch of sessions per call: when `next` is set, pass it back as `cursor` for older sessions.",
      inputSchema,
      annotations: { readOnlyHint: true },
    },
    async ({ path, session, cursor, maxBytes }) => {
      const cap = maxBytes ?? DEFAULT_MAX_BYTES;
      const wanted = path.replace(/^\.\//, "");
      let sessions: { id: string; title: string | null }[];
      let next: string | null = null;
      if (session) {
        if (cursor) throw new ToolInputError("a cursor pages over sessions: not with `session`");
        const meta = await sessionMeta(session);
        sessions = [{ id: meta.id, title: meta.title }];
      } else {
        const page = await listSessions({ cursor: cursor ?? null, limit: SCAN });
        sessions = page.sessions;
        next = page.nextCursor;
      }
      const touches: Touch[] = [];
      let used = 300;
      let truncated = false;
      for (const s of sessions) {
        for (const t of await touchesIn(s, wanted)) {
          const size = Buffer.byteLength(JSON.stringify(t)) + 4;
          if (used + size > cap) {
            truncated = true;
            break;
          }
          touches.push(t);
          used += size;
        }
        if (truncated) break;
      }
      // A cut inside a batch has no resume point: the answer says so, and how to see the rest.
      const note = truncated ? "byte cap reached inside this batch: ask again with `session` or a larger maxBytes for the rest" : undefined;
      return answer({ path: wanted, scannedSessions: sessions.length, touches, truncated, next, ...(note ? { note } : {}) });
    },
  );
}
