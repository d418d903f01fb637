"use client";
/**
 * The chat of one session: `useChat` over `POST /api/chat` (conventions rule 5: only the newest
 * message is sent; the server rebuilds the context). Saved entries stream in as `data-entry`
 * parts and go straight into the cache (their contents, and a skeleton row), so the chat and the
 * canvas update live; the turn's end refreshes the skeleton with a `?since=` delta;
 * compaction, retry and usage parts drive the status shown above the composer.
 */
import { useChat } from "@ai-sdk/react";
import { useQueryClient } from "@tanstack/react-query";
import { DefaultChatTransport } from "ai";
import { useCallback, useMemo, useState } from "react";
import type { ArborDataParts, CompactionReason, SessionUIMessage } from "@/lib/chat-protocol/ui-types";
import { invalidateSession } from "@/lib/query/keys";
import { invalidateEntries } from "@/lib/query/entries";
import { requestFullRefresh } from "@/lib/query/session";
import { applySavedEntry } from "@/lib/query/session-cache";
import { groupDigits } from "@/lib/text/group-digits";

export interface CompactionStatus {
  reason: CompactionReason;
  text: string;
  done: boolean;
  errorMessage?: string;
}

export function useSessionChat(sessionId: string) {
  const qc = useQueryClient();
  const [compaction, setCompaction] = useState<CompactionStatus | null>(null);
  const [retry, setRetry] = useState<ArborDataParts["retry"] | null>(null);
  const [turnError, setTurnError] = useState<ArborDataParts["error"] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Assistant entries saved during the current turn: a step whose entry is saved is shown from the
  // session data, so its streamed copy must disappear at once (never two copies on screen).
  const [savedSteps, setSavedSteps] = useState(0);

  const transport = useMemo(
    () =>
      new DefaultChatTransport<SessionUIMessage>({
        api: "/api/chat",
        // The chat's own id is per-tab state; the server needs the session id.
        prepareSendMessagesRequest: ({ messages }) => ({ body: { id: sessionId, message: messages.at(-1) } }),
      }),
    [sessionId],
  );

  const chat = useChat<SessionUIMessage>({
    id: `chat-${sessionId}`,
    transport,
    onData: (part) => {
      switch (part.type) {
        case "data-entry": {
          const { entry, leafId } = part.data;
          applySavedEntry(qc, sessionId, entry, leafId);
          if (entry.type === "message" && entry.message.role === "assistant") setSavedSteps((n) => n + 1);
          break;
        }
        case "data-compaction": {
          const d = part.data;
          if (d.phase === "start") setCompaction({ reason: d.reason, text: "", done: false });
          else if (d.phase === "delta") setCompaction((c) => (c ? { ...c, text: c.text + d.delta } : c));
          else setCompaction((c) => ({ reason: d.reason, text: c?.text ?? "", done: true, errorMessage: d.errorMessage }));
          break;
        }
        case "data-retry":
          setRetry(part.data.phase === "end" && part.data.success ? null : part.data);
          break;
        case "data-prune":
          // Pruning rewrites stored tool results in place: reload their contents and the skeleton.
          requestFullRefresh(sessionId);
          void invalidateEntries(qc, sessionId);
          setNotice(`Pruned ${part.data.prunedCount} old tool outputs (${groupDigits(part.data.tokensSaved)} tokens); the originals are kept.`);
          break;
        case "data-error":
          setTurnError(part.data);
          break;
        default:
          break;
      }
    },
    onFinish: () => {
      void invalidateSession(qc, sessionId);
    },
    onError: (error) => setTurnError({ message: error.message }),
  });

  const send = useCallback(
    async (text: string) => {
      setTurnError(null);
      setCompaction(null);
      setNotice(null);
      setSavedSteps(0);
      chat.setMessages([]);
      await chat.sendMessage({ text });
    },
    [chat],
  );

  const stop = useCallback(async () => {
    await fetch("/api/chat/stop", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: sessionId }) }).catch(() => undefined);
  }, [sessionId]);

  const busy = chat.status === "submitted" || chat.status === "streaming";
  return { chat, send, stop, busy, savedSteps, compaction, retry, turnError, notice, clearError: () => setTurnError(null) };
}

/**
 * The parts of the assistant message still being generated: those after the last step start, as
 * long as that step's entry is not saved yet (`savedSteps` assistant entries saved this turn).
 */
export function liveParts(messages: SessionUIMessage[], savedSteps = 0): SessionUIMessage["parts"] {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return [];
  let start = 0;
  let steps = 0;
  last.parts.forEach((p, i) => {
    if (p.type === "step-start") {
      start = i + 1;
      steps++;
    }
  });
  return steps > savedSteps ? last.parts.slice(start) : [];
}
