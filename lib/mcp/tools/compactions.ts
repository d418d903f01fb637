/**
 * `list_compactions` (every compaction of a session, on the current branch or not) and
 * `compaction_dropped` (dropped.ts: a compaction's summary and the facts of its span it left out,
 * each with its source entry). Paged with offset, capped in bytes.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { FACT_KINDS } from "@/lib/compaction/fact-check";
import { answer, clipText, DEFAULT_MAX_BYTES, maxBytesSchema, offsetSchema, pageOf } from "../bounded";
import { DEFAULT_DROPPED_KINDS, droppedBy } from "../dropped";
import { allEntries, branchTo, sessionMeta } from "../sessions";

const SUMMARY_PREVIEW = 400;

export function registerCompactionTools(server: McpServer): void {
  server.registerTool(
    "list_compactions",
    {
      title: "A session's compactions",
      description: "Every compaction of a session in file order: id, time, tokens before, whether it is on the current branch, and the start of its summary.",
      inputSchema: { session: z.string().min(1).describe("The session id."), offset: offsetSchema, maxBytes: maxBytesSchema },
      annotations: { readOnlyHint: true },
    },
    async ({ session, offset, maxBytes }) => {
      const meta = await sessionMeta(session);
      const onBranch = new Set((await branchTo(meta, undefined)).path.map((e) => e.id));
      const items = (await allEntries(meta)).flatMap((e) =>
        e.type === "compaction"
          ? [
              {
                id: e.id,
                timestamp: e.timestamp,
                tokensBefore: e.tokensBefore,
                firstKeptEntryId: e.firstKeptEntryId,
                onCurrentBranch: onBranch.has(e.id),
                summary: clipText(e.summary, SUMMARY_PREVIEW),
              },
            ]
          : [],
      );
      return answer(await pageOf(items, { offset, maxBytes, head: { session: meta.id }, what: "compactions" }));
    },
  );

  server.registerTool(
    "compaction_dropped",
    {
      title: "What a compaction dropped",
      description:
        "For a compaction (default: the last on the session's current branch): its summary, and the facts of the span it summarised that the summary did not carry (file paths, errors, identifiers, instructions, TODOs by default), each with the entry it came from.",
      inputSchema: {
        session: z.string().min(1).describe("The session id."),
        compaction: z.string().min(1).optional().describe("The compaction entry; default the last on the current branch."),
        kinds: z.array(z.enum(FACT_KINDS)).min(1).optional().describe(`Fact kinds to return; default ${DEFAULT_DROPPED_KINDS.join(", ")}.`),
        offset: offsetSchema,
        maxBytes: maxBytesSchema,
      },
      annotations: { readOnlyHint: true },
    },
    async ({ session, compaction, kinds, offset, maxBytes }) => {
      const meta = await sessionMeta(session);
      const { dropped, summary, ...rest } = await droppedBy(meta, compaction, kinds);
      // The summary takes at most half the cap; the dropped facts page in the rest.
      const head = { session: meta.id, ...rest, summary: clipText(summary, (maxBytes ?? DEFAULT_MAX_BYTES) / 2) };
      return answer(await pageOf(dropped, { offset, maxBytes, head, what: "dropped facts" }));
    },
  );
}
