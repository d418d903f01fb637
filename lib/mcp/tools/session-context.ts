/**
 * `session_context`: what the model of a turn saw, as the inspector shows it (lib/inspector):
 * the recorded call when there is one, else the context rebuilt from the session. The turn is
 * named by its assistant entry. Its messages page by `offset` over all `messageCount` of them:
 * from the view when it holds them all, else from the inspector's message pages
 * (lib/inspector/message-pages.ts, a long turn's view holds only its first and last pages).
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { inspectEntry } from "@/lib/inspector/inspect";
import { inspectMessagesPage } from "@/lib/inspector/message-pages";
import { MESSAGE_PAGE_MAX } from "@/lib/inspector/message-window";
import type { InspectedMessage } from "@/lib/types/inspector";
import { serializeConversation } from "@/lib/compaction/serialize";
import { answer, clipText, maxBytesSchema, offsetSchema, pageOf, ToolInputError } from "../bounded";
import { clipEntry, mcpPrompts } from "../entry-text";
import { sessionMeta } from "../sessions";

const SYSTEM_CLIP = 4_000;

/** The tool names a recorded or reconstructed turn, never the next-turn preview. */
const noPreview = async (): Promise<never> => {
  throw new Error("session_context has no next-turn preview");
};

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
      const at = offset ?? 0;
      let shown: InspectedMessage[] = view.messages;
      let base = 0;
      if (view.messageCount > view.messages.length) {
        const page = await inspectMessagesPage({ sessionId: meta.id, prompts: mcpPrompts(), target: { kind: "entry", entryId: entry }, offset: at, limit: MESSAGE_PAGE_MAX, configure: noPreview });
        if (page === null || page === "not_assistant") throw new ToolInputError(`entry "${entry}" changed while it was read: ask again`);
        if ("problem" in page) throw new ToolInputError(page.problem);
        shown = page.page.messages;
        base = at;
      }
      const messages = shown.map((m) => ({ index: m.index, role: m.message.role, kind: m.kind, kept: m.kept, text: serializeConversation([m.message]) }));
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
      const page = await pageOf(messages, { offset: at - base, maxBytes, head, what: "messages the turn sent", clip: clipEntry(clipText) });
      // Offsets count the turn's whole list; a page of the inspector's that ends early goes on after it.
      const end = at + page.items.length;
      const next = end < view.messageCount ? end : null;
      return answer({ ...page, offset: at, total: view.messageCount, truncated: next !== null, next });
    },
  );
}
