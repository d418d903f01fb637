/**
 * `read_session`: a branch's entries as text (entry-text.ts), root first, windowed: start at an
 * `offset` on the branch, at an entry (`fromEntry`) or at the n-th user turn (`turn`); at most
 * `limit` entries and `maxBytes` bytes. The branch ends at the session's leaf unless `leaf` names
 * another entry (session-engine.md §1.6: the path from the root to that entry).
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { answer, clipText, maxBytesSchema, offsetSchema, pageOf, ToolInputError } from "../bounded";
import { clipEntry, entryText } from "../entry-text";
import { branchTo, sessionMeta } from "../sessions";

const MAX_LIMIT = 500;

const inputSchema = {
  session: z.string().min(1).describe("The session id."),
  leaf: z.string().min(1).optional().describe("The entry the branch ends at; default the session's current leaf."),
  offset: offsetSchema,
  fromEntry: z.string().min(1).optional().describe("Start at this entry of the branch."),
  turn: z.number().int().min(1).optional().describe("Start at the n-th user message of the branch (1 = the first)."),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`At most this many entries (1–${MAX_LIMIT}; default 100).`),
  maxBytes: maxBytesSchema,
};

export function registerReadSession(server: McpServer): void {
  server.registerTool(
    "read_session",
    {
      title: "Read a session's branch",
      description:
        "A session's branch (root to the leaf, or to `leaf`) as text, one item per entry with its id and index. Window it with offset, fromEntry or turn, and limit; `next` is the offset to continue at.",
      inputSchema,
      annotations: { readOnlyHint: true },
    },
    async ({ session, leaf, offset, fromEntry, turn, limit, maxBytes }) => {
      if ([offset, fromEntry, turn].filter((x) => x !== undefined).length > 1) throw new ToolInputError("give at most one of offset, fromEntry and turn");
      const meta = await sessionMeta(session);
      const { leafId, path } = await branchTo(meta, leaf);
      let start = offset ?? 0;
      if (fromEntry !== undefined) {
        start = path.findIndex((e) => e.id === fromEntry);
        if (start < 0) throw new ToolInputError(`entry "${fromEntry}" is not on the branch to ${leafId}`);
      }
      if (turn !== undefined) {
        const users = path.flatMap((e, i) => (e.type === "message" && e.message.role === "user" ? [i] : []));
        if (turn > users.length) throw new ToolInputError(`turn ${turn} is past the end: the branch has ${users.length} user messages`);
        start = users[turn - 1]!;
      }
      const texts = path.map(entryText);
      const head = { session: meta.id, title: meta.title, cwd: meta.cwd, leaf: leafId };
      return answer(await pageOf(texts, { offset: start, limit: limit ?? 100, maxBytes, head, what: "entries on the branch", clip: clipEntry(clipText) }));
    },
  );
}
