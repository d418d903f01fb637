/**
 * `files_touched`: which sessions and turns read or modified a path, from the tool calls'
 * file operations (lib/compaction/file-ops.ts: the `path` argument of read, write and edit calls,
 * session-engine.md §10). A path matches when it is the one given or ends with "/" + it. Scans
 * the session list newest first, SCAN sessions per call; `next` is the cursor to continue (it
 * also resumes inside a session when the byte cap cut its touches).
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listSessions, loadEntries } from "@/lib/db";
import { createFileOps, extractFileOpsFromMessage } from "@/lib/compaction/file-ops";
import { answer, DEFAULT_MAX_BYTES, maxBytesSchema, ToolInputError } from "../bounded";
import { sessionMeta } from "../sessions";

const SCAN = 20;

/** Where a call resumes: the session list's page, the session in it, the touch in that session. */
interface Cursor {
  list: string | null;
  session: number;
  touch: number;
}

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.list, c.session, c.touch])).toString("base64url");

function decodeCursor(raw: string | undefined): Cursor {
  if (!raw) return { list: null, session: 0, touch: 0 };
  try {
    const v: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    const whole = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
    if (Array.isArray(v) && (typeof v[0] === "string" || v[0] === null) && whole(v[1]) && whole(v[2])) return { list: v[0], session: v[1], touch: v[2] };
  } catch {}
  throw new ToolInputError(`cursor "${raw}" is not one this server gave`);
}

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
      const at = decodeCursor(cursor);
      let sessions: { id: string; title: string | null }[];
      let pageNext: string | null = null;
      if (session) {
        const meta = await sessionMeta(session);
        sessions = [{ id: meta.id, title: meta.title }];
      } else {
        const page = await listSessions({ cursor: at.list, limit: SCAN });
        sessions = page.sessions;
        pageNext = page.nextCursor;
      }
      if (at.session > sessions.length) throw new ToolInputError(`cursor "${cursor}" points past its batch`);
      const touches: Touch[] = [];
      let used = 400;
      let next: string | null = null;
      scan: for (let i = at.session; i < sessions.length; i++) {
        const found = await touchesIn(sessions[i]!, wanted);
        for (let j = i === at.session ? at.touch : 0; j < found.length; j++) {
          const size = Buffer.byteLength(JSON.stringify(found[j])) + 4;
          if (used + size > cap) {
            // A cut inside a batch resumes at this touch of this session.
            next = encodeCursor({ list: at.list, session: i, touch: j });
            break scan;
          }
          touches.push(found[j]!);
          used += size;
        }
      }
      if (next === null && pageNext !== null) next = encodeCursor({ list: pageNext, session: 0, touch: 0 });
      return answer({ path: wanted, scannedSessions: sessions.length - at.session, touches, truncated: next !== null, next });
    },
  );
}
