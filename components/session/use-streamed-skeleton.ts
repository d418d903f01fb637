"use client";
/**
 * Completes the page of a large session (SessionData `pending`): streams the whole
 * skeleton (lib/query/skeleton-stream.ts) once per mount and puts it in the cache, where it
 * replaces the tail of the current path the page came with (a refetch still in flight is
 * cancelled first, so it cannot put the tail back). Meanwhile it reports the share loaded; a
 * failure is reported as a message (the chat keeps working). Unmounting cancels.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { invalidateSession, keys } from "@/lib/query/keys";
import { type SessionData, seedSessionView } from "@/lib/query/session";
import { streamSkeleton } from "@/lib/query/skeleton-stream";
import { errorText } from "@/lib/text/error-text";

export interface StreamedSkeleton {
  /** Share of the entries loaded (0–1). */
  share: number;
  error: string | null;
}

export function useStreamedSkeleton(sessionId: string, pending: boolean): StreamedSkeleton {
  const qc = useQueryClient();
  const [share, setShare] = useState(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!pending) return;
    const ac = new AbortController();
    setError(null);
    let shown = 0;
    const onProgress = (s: number) => {
      if (s - shown < 0.02 && s < 1) return;
      shown = s;
      setShare(s);
    };
    streamSkeleton(sessionId, { signal: ac.signal, onProgress }).then(
      async ({ data: full, view }) => {
        // A refetch of the page's data still in flight would land after this and put the
        // path's tail back (pending for good, "Loading tree… 100%"): cancel it first (it
        // reverts to the value before it), then the streamed skeleton replaces that value.
        await qc.cancelQueries({ queryKey: keys.session(sessionId) });
        if (ac.signal.aborted) return;
        const before = qc.getQueryData<SessionData>(keys.session(sessionId));
        qc.setQueryData<SessionData>(keys.session(sessionId), full);
        // The cache keeps an equal copy (structural sharing with the page's data): give it the
        // view built while streaming, so adopting it decodes nothing again.
        const stored = qc.getQueryData<SessionData>(keys.session(sessionId));
        if (stored && stored !== full && stored.count === full.count) seedSessionView(stored, view);
        // Entries appended while the stream ran: fetch them as a delta (`?since=`).
        if (before && before.count + before.live.length > full.count) void invalidateSession(qc, sessionId);
      },
      (e: unknown) => {
        if (!ac.signal.aborted) setError(errorText(e));
      },
    );
    return () => ac.abort();
  }, [sessionId, pending, qc]);
  return { share, error };
}
