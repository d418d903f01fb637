"use client";
/**
 * Keeps an open session page in step with commits made elsewhere — a folder sync appending an
 * agent's new lines, another tab, another app process: subscribes to the session's Server-Sent
 * Events (GET /api/sessions/[id]/events) and, on each change newer than the cached rev, marks the
 * session's data stale the way a finished chat turn does (invalidateSession): the skeleton is
 * refetched as a delta (`?since=`, lib/query/session.ts) and the chat, tree, context meter and
 * inspector follow from the cache. Changes within THROTTLE_MS are taken together. EventSource
 * reconnects by itself after a dropped connection; `ready` on each (re)connect fetches once, for
 * what was committed while no one listened.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { invalidateSession, keys } from "@/lib/query/keys";
import type { SessionData } from "@/lib/query/session";

const THROTTLE_MS = 150;

export function useLiveSession(sessionId: string): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/sessions/${encodeURIComponent(sessionId)}/events`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void invalidateSession(qc, sessionId);
      }, THROTTLE_MS);
    };
    source.addEventListener("ready", refresh);
    source.addEventListener("change", (e) => {
      const rev = (JSON.parse((e as MessageEvent<string>).data) as { rev: number | null }).rev;
      const cached = qc.getQueryData<SessionData>(keys.session(sessionId))?.rev;
      if (rev === null || cached === undefined || rev > cached) refresh();
    });
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [qc, sessionId]);
}
