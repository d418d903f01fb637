import type { Metadata } from "next";
import { DeviceList } from "@/components/auth/device-list";
import { requirePageUser } from "@/lib/auth/guard";
import { listDevices } from "@/lib/auth/sessions";
import { authEnabled } from "@/lib/auth/state";
import { describeUserAgent } from "@/lib/auth/user-agent";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Signed-in devices · Arbor" };

/** "Signed-in devices" (reached from the header, next to "Sign out"): every session, this one marked. */
export default async function DevicesPage() {
  const user = await requirePageUser("/devices");
  const devices = authEnabled() ? await listDevices({ currentSessionId: user.sessionId }) : [];
  return (
    <div className="mx-auto max-w-2xl p-6">
      <h1 className="mb-2 text-xl font-semibold">Signed-in devices</h1>
      {authEnabled() ? (
        <>
          <p className="mb-4 text-sm text-muted">Every browser signed in to this Arbor. Signing a device out ends its session at once.</p>
          <DeviceList
            devices={devices.map((d) => ({
              id: d.id,
              name: describeUserAgent(d.userAgent),
              userAgent: d.userAgent,
              clientAddress: d.clientAddress,
              createdAt: d.createdAt.toISOString(),
              lastSeenAt: d.lastSeenAt.toISOString(),
              current: d.current,
            }))}
          />
        </>
      ) : (
        <p className="text-sm text-muted">Sign-in is off (ARBOR_PASSWORD is not set), so no device signs in.</p>
      )}
    </div>
  );
}
