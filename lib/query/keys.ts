/** TanStack Query keys and queryOptions factories (conventions rule 7). */
import { queryOptions } from "@tanstack/react-query";
import type { SessionSummary } from "@/lib/db/sessions";

export const keys = {
  sessions: () => ["sessions"] as const,
  session: (id: string) => ["session", id] as const,
};

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new Error(body.error ?? `${res.status} ${res.statusText}`);
  }
  return (await res.json()) as T;
}

export function sessionListOptions() {
  return queryOptions({
    queryKey: keys.sessions(),
    queryFn: () => getJson<{ sessions: SessionSummary[] }>("/api/sessions"),
  });
}
