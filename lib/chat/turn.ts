import "server-only";
/**
 * A chat turn: `agent.prompt(content)` on the stored session, streamed as the UI message
 * stream of lib/chat-protocol/ui-types.ts (operation.ts does the plumbing).
 *
 * - The turn survives the client: the request's abort signal and a cancelled response body do
 *   NOT stop it; it completes and is saved. Only Stop (`POST /api/chat/stop` → abortRun) aborts
 *   it, and the partial assistant message is then saved with stopReason "aborted".
 * - A model picked in the request becomes the session's chat model (stored in the settings
 *   column's `agent.chatModel`), so the next turn and a reload use it too.
 * - Text and image parts of the user's UI message become the user message's content.
 * - A turn whose last model call failed (provider error, dropped connection, garbage, the idle
 *   timeout) keeps that assistant entry — stopReason "error", its errorMessage, any partial
 *   content — as the leaf, and ends with a `data-error` saying so (unless a more specific error,
 *   e.g. failed overflow recovery, was already reported). The next turn continues from there.
 */
import { writeSessionSettings } from "@/lib/db";
import type { ImageContent, SessionEntry, TextContent, UserMessage } from "@/lib/session/types";
import { startOperation } from "./operation";
import { updateSessionConfig } from "@/lib/chat-protocol/session-config";

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

/** The message of a turn that ended on a failed model call, else undefined. */
export function turnFailure(leaf: SessionEntry | undefined): string | undefined {
  if (leaf?.type !== "message" || leaf.message.role !== "assistant" || leaf.message.stopReason !== "error") return undefined;
  const reason = leaf.message.errorMessage?.trim() || "the model returned an error";
  return `The turn ended with an error: ${reason.replace(/[.\s]+$/, "")}. Your message is saved; send it again to retry.`;
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
    work: async ({ opened, sink, run }) => {
      await opened.agent.prompt(input.content, { signal: run.signal });
      const { tree } = opened.agent;
      const leafId = tree.getLeafId();
      const failed = turnFailure(leafId ? tree.getEntry(leafId) : undefined);
      if (failed && !sink.hasError()) sink.error(failed);
    },
  });
}
