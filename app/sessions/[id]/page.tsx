import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { SessionWorkspace } from "@/components/session/session-workspace";
import { requirePageUser } from "@/lib/auth/guard";
import { isDatabaseUnavailable, NotFoundError } from "@/lib/db/errors";
import { readSession, type SessionView } from "@/lib/db/read-model";
import { getQueryClient } from "@/lib/query/client";
import { seedEntries } from "@/lib/query/entries";
import { keys } from "@/lib/query/keys";
import { mergePayload } from "@/lib/query/session";
import { latestChatEntries, skeletonPayload } from "@/lib/session-view/server";

export const dynamic = "force-dynamic";

/** A Claude Code subagent file's session (lib/formats/claude-code-map.ts), rather than a fork. */
function isSubagent(header: Record<string, unknown>): boolean {
  const cc = header.claudeCode as { agentId?: unknown } | undefined;
  return typeof cc?.agentId === "string";
}

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
  qc.setQueryData(keys.session(id), mergePayload(undefined, skeletonPayload(view)));
  seedEntries(qc, id, latestChatEntries(view));
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <div className="flex h-[calc(100vh-3rem)] flex-col">
        <div className="flex items-center gap-3 border-b border-line px-3 py-1.5">
          <h1 className="truncate font-semibold">{session.title ?? "Untitled session"}</h1>
          {session.parentSession && (
            <Link href={`/sessions/${encodeURIComponent(session.parentSession)}`} className="truncate text-sm text-muted underline">
              {isSubagent(session.header) ? "Subagent of" : "Forked from"} {session.parentSession}
            </Link>
          )}
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
