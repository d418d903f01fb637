/**
 * `session_context`: what the model of a turn saw, as the inspector shows it (lib/inspector):
 * the recorded call when there is one, else the context rebuilt from the session. The turn is
 * named by its assistant entry. The messages are the inspector's window (all of them, or the first
 * and last pages of a long context: each keeps its `index` among `messageCount`), paged in bytes.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { inspectEntry } from "@/lib/inspector/inspect";
import { serializeConversation } from "@/lib/compaction/serialize";
import { answer, clipText, maxBytesSchema, offsetSchema, pageOf, ToolInputError } from "../bounded";
import { clipEntry, mcpPrompts } from "../entry-text";
import { sessionMeta } from "../sessions";

const SYSTEM_CLIP = 4_000;

const inputSchema = {
  session: z.string().min(1).describe("The session id."),
  entry: z.string().min(1).describe("The assistant entry the turn produced (read_session gives ids)."),
  offset: offsetSchema,
  maxBytes: maxBytesSchema,
};

export function registerSessionContext(server: McpServer): void {
  server.registerTool(
    "session_context",
    {
      title: "What a turn's model saw",
      description:
        "The context the model of one turn was sent (system prompt, the compaction in effect, the messages as text), as Arbor's inspector shows it; recorded when Arbor made the call, else reconstructed. Paged with offset.",
      inputSchema,
      annotations: { readOnlyHint: true },
    },
    async ({ session, entry, offset, maxBytes }) => {
      const meta = await sessionMeta(session);
      const view = await inspectEntry({ sessionId: meta.id, entryId: entry, prompts: mcpPrompts() });
      if (view === null) throw new ToolInputError(`session "${meta.id}" has no entry "${entry}"`);
      if (view === "not_assistant") throw new ToolInputError(`entry "${entry}" is not an assistant message: name the assistant entry of the turn`);
      const messages = view.messages.map((m) => ({
        index: m.index,
        role: m.message.role,
        kind: m.kind,
        kept: m.kept,
        text: serializeConversation([m.message]),
      }));
      const head = {
        session: meta.id,
        entry,
        origin: view.origin,
        model: view.model,
        contextWindow: view.contextWindow,
        estimatedTokens: view.estimatedTokens,
        compaction: view.compaction,
        notes: view.notes,
        system: view.system === null ? null : clipText(view.system, SYSTEM_CLIP),
        messageCount: view.messageCount,
      };
      return answer(await pageOf(messages, { offset, maxBytes, head, what: "messages in the inspector's window", clip: clipEntry(clipText) }));
    },
  );
}
