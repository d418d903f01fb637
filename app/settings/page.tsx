import { ProvidersSettings } from "@/components/settings/providers-settings";
import { requirePageUser } from "@/lib/auth/guard";
import { providersView } from "@/lib/chat/providers-view";

export const dynamic = "force-dynamic";

/** "Settings": connect models (ui.md "Settings"; lib/chat/provider-settings.ts). Never sends a key to the browser. */
export default async function SettingsPage() {
  await requirePageUser("/settings");
  return <ProvidersSettings initial={await providersView()} />;
}
