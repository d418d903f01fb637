/**
 * "Continue in…" (docs/formats.md "Hand-off"): the preview of a branch written in an agent's
 * format, and the URLs of its download and write. Never cached: each preview names a fresh
 * session id and moment, which a confirmed write repeats.
 */
import { queryOptions } from "@tanstack/react-query";
import type { HandoffAgent, HandoffPreview } from "@/lib/types/handoff";
import { getJson, keys } from "./keys";

export const handoffKeys = {
  preview: (sessionId: string, entryId: string | undefined, format: HandoffAgent) => [...keys.session(sessionId), "handoff", entryId ?? "leaf", format] as const,
};

/** GET …/handoff for `entryId` (the leaf when undefined); `preview` asks for the JSON preview. */
export function handoffUrl(sessionId: string, entryId: string | undefined, format: HandoffAgent, preview = false): string {
  const q = new URLSearchParams({ format });
  if (entryId) q.set("entry", entryId);
  if (preview) q.set("preview", "1");
  return `/api/sessions/${encodeURIComponent(sessionId)}/handoff?${q}`;
}

export function handoffPreviewOptions(sessionId: string, entryId: string | undefined, format: HandoffAgent) {
  return queryOptions({
    queryKey: handoffKeys.preview(sessionId, entryId, format),
    queryFn: ({ signal }) => getJson<HandoffPreview>(handoffUrl(sessionId, entryId, format, true), { signal }),
    staleTime: 0,
    gcTime: 0,
  });
}
