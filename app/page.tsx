import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { SessionList } from "@/components/sessions/session-list";
import { listSessions } from "@/lib/db";
import { getQueryClient } from "@/lib/query/client";
import { SESSION_PAGE_SIZE, sessionListOptions } from "@/lib/query/keys";
import { requirePageUser } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

/** The session list: the first page is fetched here, from the store, and hydrated into the client's cache. */
export default async function HomePage() {
  await requirePageUser("/");
  const qc = getQueryClient();
  await qc.prefetchInfiniteQuery({
    ...sessionListOptions(""),
    queryFn: ({ pageParam }) => listSessions({ cursor: pageParam, limit: SESSION_PAGE_SIZE }),
  });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <SessionList />
    </HydrationBoundary>
  );
}
