import { SyncPanel } from "@/components/sync/sync-panel";
import { requirePageUser } from "@/lib/auth/guard";
import { allowedRootsSetting } from "@/lib/chat/runtime-config";

export const dynamic = "force-dynamic";

/** "Sync folder": keep folders of session files in sync with Arbor (lib/sync; POST /api/sync). */
export default async function SyncPage() {
  await requirePageUser("/sync");
  return <SyncPanel roots={allowedRootsSetting()} />;
}
