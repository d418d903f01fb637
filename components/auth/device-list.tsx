"use client";
/**
 * The "Signed-in devices" list: what each device is, when it signed in and was last seen, and a
 * "Sign out" per other device plus "Sign out all other devices" (app/devices/actions.ts). This
 * device is marked and signs out with the header's "Sign out". Errors show in place.
 */
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { signOutDevice, signOutOtherDevices } from "@/app/devices/actions";

export interface DeviceView {
  id: string;
  name: string;
  userAgent: string;
  clientAddress: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** The buttons of the devices page (this list and the MCP tokens). */
export const deviceButton =
  "rounded border border-line px-2 py-0.5 text-sm hover:bg-[var(--panel)] disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]";

/** A moment as the devices page shows it. */
export function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
    </time>
  );
}

export function DeviceList({ devices }: { devices: DeviceView[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const others = devices.filter((d) => !d.current).length;

  function run(action: () => Promise<{ ok: boolean; message?: string }>, done: string) {
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? { text: done, error: false } : { text: result.message ?? "That did not work; reload the page and try again.", error: true });
      router.refresh();
    });
  }

  return (
    <div className="flex flex-col gap-3">
      <ul aria-label="Signed-in devices" className="divide-y divide-line rounded border border-line">
        {devices.map((d) => (
          <li key={d.id} aria-label={d.current ? `${d.name} (this device)` : d.name} className="flex items-center gap-3 px-3 py-2">
            <div className="min-w-0 flex-1">
              <p className="font-medium" title={d.userAgent || undefined}>
                {d.name}
                {d.current ? <span className="ml-2 rounded bg-[var(--panel)] px-1.5 text-xs font-normal">This device</span> : null}
              </p>
              <p className="text-xs text-muted">
                Signed in <When iso={d.createdAt} /> · last seen <When iso={d.lastSeenAt} />
                {d.clientAddress ? ` · from ${d.clientAddress}` : ""}
              </p>
            </div>
            {d.current ? null : (
              <button type="button" className={deviceButton} disabled={pending} onClick={() => run(() => signOutDevice({ id: d.id }), `Signed out ${d.name}`)}>
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <button type="button" className={`${deviceButton} self-start`} disabled={pending} onClick={() => run(() => signOutOtherDevices(), "Signed out all other devices")}>
          Sign out all other devices
        </button>
      ) : (
        <p className="text-sm text-muted">No other device is signed in.</p>
      )}
      <p role="status" className={message?.error ? "text-sm text-red-700 dark:text-red-300" : "text-sm"}>
        {message?.text ?? ""}
      </p>
    </div>
  );
}
