"use client";
/** The page's "live" badge, from the cached session (it follows the live updates, use-live-session.ts). */
import { useQuery } from "@tanstack/react-query";
import { LiveBadge } from "@/components/sessions/live-badge";
import { sessionDataOptions } from "@/lib/query/session";

export function SessionLiveBadge({ sessionId }: { sessionId: string }) {
  const { data } = useQuery(sessionDataOptions(sessionId));
  return data ? <LiveBadge lastActivityAt={data.session.lastActivityAt} /> : null;
}
