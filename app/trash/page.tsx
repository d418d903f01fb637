import { TrashList } from "@/components/sessions/trash-list";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { requirePageUser } from "@/lib/auth/guard";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, listTrash, purgeExpiredTrash, TRASH_DAYS, type TrashedSession } from "@/lib/db";

export const dynamic = "force-dynamic";

/** "Trash" (ui.md "Pages"): deleted sessions, restorable for TRASH_DAYS days, then deleted for good. */
export default async function TrashPage() {
  await requirePageUser("/trash");
  let sessions: TrashedSession[];
  try {
    await purgeExpiredTrash();
    sessions = await listTrash();
  } catch (error) {
    if (isDatabaseUnavailable(error)) return <DatabaseUnavailable retryHref="/trash" message={DATABASE_UNAVAILABLE_MESSAGE} />;
    throw error;
  }
  return <TrashList initial={sessions} days={TRASH_DAYS} />;
}
