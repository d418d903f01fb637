import "server-only";
/**
 * A chat turn: `agent.prompt(content)` on the stored session, streamed as the UI message
 * stream of lib/chat/ui-types.ts (operation.ts does the plumbing).
 *
 * - The turn survives the client: the request's abort signal and a cancelled response body do
 *   NOT stop it; it completes and is saved. Only Stop (`POST /api/chat/stop` → abortRun) aborts
 *   it, and the partial assistant message is then saved with stopReason "aborted".
 * - A model picked in the request becomes the session's chat model (stored in the settings
 *   column's `agent.chatModel`), so the next turn and a reload use it too.
 * - Text and image parts of the user's UI message become the user message's content.
 */
import { writeSessionSettings } from "@/lib/db/agent-store";
import type { ImageContent, TextContent, UserMessage } from "@/lib/session/types";
import { startOperation } from "./operation";
import { updateSessionConfig } from "./session-config";

export interface MessagePart {
  type: string;
  text?: string;
  mediaType?: string;
  url?: string;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/**
 * The user message content of a UI message's parts: text parts joined as one text block,
 * image file parts (base64 data URLs) as image blocks. Plain text gives a string, as pi does.
 * Undefined when nothing is left.
 */
export function userContentOf(parts: readonly MessagePart[]): UserMessage["content"] | undefined {
  const text = parts
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n\n");
  const images: ImageContent[] = [];
  for (const p of parts) {
    if (p.type !== "file" || !p.url) continue;
    const m = DATA_URL.exec(p.url);
    if (m?.[1] && m[2] !== undefined && m[1].startsWith("image/")) images.push({ type: "image", data: m[2], mimeType: m[1] });
  }
  if (images.length === 0) return text.trim() === "" ? undefined : text;
  const blocks: (TextContent | ImageContent)[] = text.trim() === "" ? [] : [{ type: "text", text }];
  return [...blocks, ...images];
}

export interface ChatTurnInput {
  sessionId: string;
  content: UserMessage["content"];
  /** "provider/modelId" picked for this turn. */
  model?: string;
}

export function startChatTurn(input: ChatTurnInput): Promise<Response> {
  return startOperation({
    sessionId: input.sessionId,
    kind: "turn",
    ...(input.model ? { chatModel: input.model } : {}),
    prepare: async ({ meta, config }) => {
      if (!input.model || config.agent.chatModel === input.model) return;
      const update = updateSessionConfig(meta.settings, { chatModel: input.model });
      if (update.ok) await writeSessionSettings({ sessionId: input.sessionId, settings: update.stored });
    },
    work: async ({ opened, run }) => {
      await opened.agent.prompt(input.content, { signal: run.signal });
    },
  });
}
