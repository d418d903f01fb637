import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { MODELS_KEY } from "@/components/session/models-query";
import { SessionWorkspace } from "@/components/session/session-workspace";
import { requirePageUser } from "@/lib/auth/guard";
import { modelList, nextTurnModelOf } from "@/lib/chat/next-model";
import { isDatabaseUnavailable, NotFoundError } from "@/lib/db/errors";
import { readSession, type SessionView } from "@/lib/db/read-model";
import { getQueryClient } from "@/lib/query/client";
import { seedEntries } from "@/lib/query/entries";
import { keys } from "@/lib/query/keys";
import { mergePayload } from "@/lib/query/session";
import { latestChatEntries, skeletonPayload } from "@/lib/session-view/server";

export const dynamic = "force-dynamic";

/** The session from the read model; null when unknown, "unavailable" when the database cannot be reached. */
async function readOrNull(sessionId: string): Promise<SessionView | null | "unavailable"> {
  try {
    return await readSession({ sessionId });
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    if (isDatabaseUnavailable(error)) return "unavailable";
    throw error;
  }
}

/**
 * RSC: prefetch the session's skeleton (no entry contents) and the contents of the newest chat
 * page, from ONE read of the read model, and render the workspace (conventions rule 7, issue #12).
 * Everything else (older chat pages, the inspector's entry JSON, search) loads on demand.
 * A lost database renders the "Database not reachable" page instead of an error.
 */
export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const path = `/sessions/${encodeURIComponent(id)}`;
  await requirePageUser(path);
  const view = await readOrNull(id);
  if (view === "unavailable") return <DatabaseUnavailable retryHref={path} />;
  if (!view || view.meta.deletedAt) notFound();
  const session = view.meta;
  const qc = getQueryClient();
  // The next turn's model and the model list come with the page: the picker and the meter
  // render on the server with the session's model (issue #13), not empty until /api/models.
  const [model, models] = await Promise.all([nextTurnModelOf(view), modelList()]);
  qc.setQueryData(keys.session(id), mergePayload(undefined, skeletonPayload(view, 0, model)));
  qc.setQueryData(MODELS_KEY, models);
  seedEntries(qc, id, latestChatEntries(view));
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      {/* The page is exactly the viewport below the app header (dvh: a phone's browser bars
          included), so the header, this title bar and the composer stay in view and only the
          panes scroll (ui.md). */}
      <div className="flex h-[calc(100dvh-3rem)] flex-col overflow-hidden">
        <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-0.5 border-b border-line px-3 py-1.5">
          <h1 className="min-w-0 flex-1 basis-40 truncate font-semibold">{session.title ?? "Untitled session"}</h1>
          <a href={`/api/sessions/${encodeURIComponent(id)}?format=jsonl`} className="text-sm text-muted underline" download>
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
