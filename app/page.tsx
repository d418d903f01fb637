import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { SessionList } from "@/components/sessions/session-list";
import { listSessions } from "@/lib/db/sessions";
import { getQueryClient } from "@/lib/query/client";
import { keys } from "@/lib/query/keys";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const qc = getQueryClient();
  await qc.prefetchQuery({ queryKey: keys.sessions(), queryFn: async () => ({ sessions: await listSessions() }) });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <SessionList />
    </HydrationBoundary>
  );
}
