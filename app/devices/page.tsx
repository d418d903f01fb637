import type { Metadata } from "next";
import { DeviceList } from "@/components/auth/device-list";
import { McpTokens } from "@/components/auth/mcp-tokens";
import { requirePageUser } from "@/lib/auth/guard";
import { listDevices } from "@/lib/auth/sessions";
import { authEnabled } from "@/lib/auth/state";
import { describeUserAgent } from "@/lib/auth/user-agent";
import { listMcpTokenRows } from "@/lib/mcp/tokens";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Signed-in devices · Arbor" };

/**
 * "Signed-in devices" (reached from the header, next to "Sign out"): every session, this one
 * marked; and the MCP tokens that open /mcp (docs/mcp.md "Over HTTP"), made and revoked here.
 */
export default async function DevicesPage() {
  const user = await requirePageUser("/devices");
  const devices = authEnabled() ? await listDevices({ currentSessionId: user.sessionId }) : [];
  const tokens = await listMcpTokenRows();
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
      <h2 className="mt-8 mb-2 text-lg font-semibold">MCP tokens</h2>
      <p className="mb-4 text-sm text-muted">
        An agent reaches Arbor&apos;s MCP server at /mcp with one of these as its bearer token (docs/mcp.md). Each token is shown once, when it is made; revoking it ends it at once.
      </p>
      <McpTokens tokens={tokens.map((t) => ({ id: t.id, name: t.name, createdAt: t.createdAt.toISOString(), lastUsedAt: t.lastUsedAt?.toISOString() ?? null }))} />
    </div>
  );
}
