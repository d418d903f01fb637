import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { SessionWorkspace } from "@/components/session/session-workspace";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { findSessionMeta, loadEntries } from "@/lib/db/store-read";
import { getQueryClient } from "@/lib/query/client";
import { keys } from "@/lib/query/keys";
import { requirePageUser } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

/** The session's metadata, or "unavailable" when the database cannot be reached. */
async function sessionMeta(id: string) {
  try {
    return await findSessionMeta({ id });
  } catch (error) {
    if (isDatabaseUnavailable(error)) return "unavailable" as const;
    throw error;
  }
}

/**
 * RSC: prefetch the session (metadata + entries) and render the workspace (conventions rule 7).
 * A lost database renders the "Database not reachable" page instead of an error; a failed
 * prefetch of the entries is left to the client's query, which reports it the same way.
 */
export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const path = `/sessions/${encodeURIComponent(id)}`;
  await requirePageUser(path);
  const session = await sessionMeta(id);
  if (session === "unavailable") return <DatabaseUnavailable retryHref={path} />;
  if (!session || session.deletedAt) notFound();
  const qc = getQueryClient();
  await qc.prefetchQuery({ queryKey: keys.session(id), queryFn: async () => ({ session, entries: await loadEntries({ sessionId: id }) }) });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <div className="flex h-[calc(100vh-3rem)] flex-col">
        <div className="flex items-center gap-3 border-b border-line px-3 py-1.5">
          <h1 className="truncate font-semibold">{session.title ?? "Untitled session"}</h1>
          <a href={`/api/sessions/${encodeURIComponent(id)}?format=jsonl`} className="ml-auto text-sm text-muted underline" download>
            Download JSONL
          </a>
          <a href={`/api/sessions/${encodeURIComponent(id)}?format=html`} className="text-sm text-muted underline" download>Download HTML</a>
          {session.sourceFileName && (
            <a href={`/api/sessions/${encodeURIComponent(id)}/original`} className="text-sm text-muted underline" download>
              Download original
            </a>
          )}
        </div>
        <div className="min-h-0 flex-1">
          <Suspense>
            <SessionWorkspace sessionId={id} />
          </Suspense>
        </div>
      </div>
    </HydrationBoundary>
  );
}
