import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import Link from "next/link";
import { Suspense } from "react";
import { notFound } from "next/navigation";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { MODELS_KEY } from "@/components/session/models-query";
import { SessionDownloads } from "@/components/session/session-downloads";
import { HandoffButton } from "@/components/session/handoff-dialog";
import { SessionLiveBadge } from "@/components/session/session-live-badge";
import { SessionSecrets } from "@/components/session/session-secrets";
import { SessionTitle } from "@/components/session/session-title";
import { SessionWorkspace } from "@/components/session/session-workspace";
import { requirePageUser } from "@/lib/auth/guard";
import { modelList, nextTurnModelOf } from "@/lib/chat/next-model";
import { MAX_SEGMENTS, SessionCost } from "@/components/usage/session-cost";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, readSessionCalls, type SessionCalls, sessionCostStrip } from "@/lib/db";
import { contextOf, summariesOf } from "@/lib/inspector/calls";
import { loadPrompts } from "@/lib/llm/prompts";
import { getQueryClient } from "@/lib/query/client";
import { seedEntries } from "@/lib/query/entries";
import { inspectorKeys } from "@/lib/query/inspector";
import { keys } from "@/lib/query/keys";
import { pageData } from "@/lib/query/session";
import { latestChatEntries, pagePayload } from "@/lib/session-view/server";

export const dynamic = "force-dynamic";

/**
 * A subagent's session rather than a fork: a Claude Code subagent file or a sidechain run of its
 * parent's file (lib/formats/claude-code/file.ts), or an opencode child session (its only parent
 * is the session whose task ran it: lib/formats/opencode-map.ts).
 */
function isSubagent(header: Record<string, unknown>): boolean {
  const cc = header.claudeCode as { agentId?: unknown; sidechainRootUuid?: unknown } | undefined;
  return typeof cc?.agentId === "string" || typeof cc?.sidechainRootUuid === "string" || header.sourceFormat === "opencode";
}

/** Links the session's file named (a Claude Code pull request: `header.links`, lib/db/store/session.ts), http(s) only. */
function headerLinks(header: Record<string, unknown>): { url: string; title: string }[] {
  const links = header.links;
  if (!Array.isArray(links)) return [];
  return links.filter(
    (l): l is { url: string; title: string } => typeof l?.url === "string" && typeof l?.title === "string" && /^https?:\/\//.test(l.url),
  );
}

/**
 * The session from the read model with its recorded calls (the same one statement when the
 * cache is current); null when unknown or deleted, "unavailable" when the database cannot be reached.
 */
async function readOrNull(sessionId: string): Promise<SessionCalls | null | "unavailable"> {
  try {
    return await readSessionCalls(sessionId);
  } catch (error) {
    if (isDatabaseUnavailable(error)) return "unavailable";
    throw error;
  }
}

/**
 * The title bar's cost, streamed after the page (its own boundary): a session of tens of thousands
 * of calls takes ~0.1–0.3 s to group, which the rest of the page does not wait for. Nothing when the
 * database went away meanwhile (the page said so already, or will on the next request).
 */
async function SessionCostOf({ sessionId }: { sessionId: string }) {
  try {
    const usage = await sessionCostStrip({ sessionId, maxSegments: MAX_SEGMENTS });
    return <SessionCost own={usage.own} subagents={usage.subagents} segments={usage.segments} />;
  } catch (error) {
    if (isDatabaseUnavailable(error)) return null;
    throw error;
  }
}

/** Up to this many calls, the inspector's call list comes with the page (a few KB); beyond, it loads after. */
const PREFETCH_CALLS = 200;

/**
 * RSC: prefetch the session's skeleton (no entry contents; for a session over PAGE_SKELETON_MAX
 * entries only the tail of its current path, the browser streams the rest), the contents of the newest chat
 * page and the inspector's call list, from ONE read of the read model, and render the workspace
 * (conventions rule 7). Everything else (older chat pages, the inspector's turn and
 * entry JSON, search) loads on demand.
 * A lost database renders the "Database not reachable" page instead of an error.
 */
export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const path = `/sessions/${encodeURIComponent(id)}`;
  await requirePageUser(path);
  const read = await readOrNull(id);
  if (read === "unavailable") return <DatabaseUnavailable retryHref={path} message={DATABASE_UNAVAILABLE_MESSAGE} />;
  if (!read) notFound();
  const { view } = read;
  const session = view.meta;
  const qc = getQueryClient();
  // The next turn's model and the model list come with the page: the picker and the meter
  // render on the server with the session's model (docs/ui.md "The session workspace"), not empty until /api/models.
  const [model, models] = await Promise.all([nextTurnModelOf(view), modelList()]);
  // Up to PAGE_SKELETON_MAX entries the whole skeleton; beyond, the tail of the current path
  // (the client streams the rest without a long task).
  qc.setQueryData(keys.session(id), pageData(pagePayload(view, model)));
  qc.setQueryData(MODELS_KEY, models);
  seedEntries(qc, id, latestChatEntries(view));
  if (read.calls.length <= PREFETCH_CALLS) {
    qc.setQueryData(inspectorKeys.calls(id), summariesOf(await contextOf(read, loadPrompts(), { matches: false })));
  }
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      {/* The page is exactly the viewport below the app header (dvh: a phone's browser bars
          included), so the header, this title bar and the composer stay in view and only the
          panes scroll (ui.md). */}
      <div className="flex h-[calc(100dvh-3rem)] flex-col overflow-hidden">
        <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-0.5 border-b border-line px-3 py-1.5">
          <SessionTitle sessionId={id} />
          <SessionLiveBadge sessionId={id} />
          {session.parentSession && (
            <Link href={`/sessions/${encodeURIComponent(session.parentSession)}`} className="truncate text-sm text-muted underline">
              {isSubagent(session.header) ? "Subagent of" : "Forked from"} {session.parentSession}
            </Link>
          )}
          <Suspense fallback={null}>
            <SessionCostOf sessionId={id} />
          </Suspense>
          {headerLinks(session.header).map((l) => (
            <a key={l.url} href={l.url} className="truncate text-sm text-muted underline" rel="noopener noreferrer" target="_blank">
              {l.title}
            </a>
          ))}
          <SessionSecrets sessionId={id} />
          <SessionDownloads sessionId={id} hasOriginal={Boolean(session.sourceFileName)} />
          <HandoffButton sessionId={id} />
        </div>
        <div className="min-h-0 flex-1">
          {/* No Suspense boundary here: the page is dynamic (so useSearchParams needs none), and React
              streams a boundary's large content out of order behind a script, which left the
              workspace hidden until that script ran (the page must be readable before any script). */}
          <SessionWorkspace sessionId={id} />
        </div>
      </div>
    </HydrationBoundary>
  );
}
