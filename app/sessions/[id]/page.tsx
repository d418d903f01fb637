import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { SessionWorkspace } from "@/components/session/session-workspace";
import { requirePageUser } from "@/lib/auth/guard";
import { NotFoundError } from "@/lib/db/errors";
import { readSession, type SessionView } from "@/lib/db/read-model";
import { getQueryClient } from "@/lib/query/client";
import { seedEntries } from "@/lib/query/entries";
import { keys } from "@/lib/query/keys";
import { mergePayload } from "@/lib/query/session";
import { latestChatEntries, skeletonPayload } from "@/lib/session-view/server";

export const dynamic = "force-dynamic";

async function readOrNull(sessionId: string): Promise<SessionView | null> {
  try {
    return await readSession({ sessionId });
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * RSC: prefetch the session's skeleton (no entry contents) and the contents of the newest chat
 * page, from ONE read of the read model, and render the workspace (conventions rule 7, issue #12).
 * Everything else (older chat pages, the inspector's entry JSON, search) loads on demand.
 */
export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePageUser(`/sessions/${encodeURIComponent(id)}`);
  const view = await readOrNull(id);
  if (!view || view.meta.deletedAt) notFound();
  const session = view.meta;
  const qc = getQueryClient();
  qc.setQueryData(keys.session(id), mergePayload(undefined, skeletonPayload(view)));
  seedEntries(qc, id, latestChatEntries(view));
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <div className="flex h-[calc(100vh-3rem)] flex-col">
        <div className="flex items-center gap-3 border-b border-line px-3 py-1.5">
          <h1 className="truncate font-semibold">{session.title ?? "Untitled session"}</h1>
          <a href={`/api/sessions/${encodeURIComponent(id)}?format=jsonl`} className="ml-auto text-sm text-muted underline" download>
            Download JSONL
          </a>
          <a href={`/api/sessions/${encodeURIComponent(id)}?format=html`} className="text-sm text-muted underline" download>Download HTML</a>
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
