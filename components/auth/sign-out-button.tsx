/**
 * The header's sign-in area, shown only when sign-in is on and a session is present:
 * "Signed-in devices" (app/devices) and "Sign out", a plain form post (works without
 * JavaScript) that /api/auth/logout answers with a redirect to /login.
 */
import Link from "next/link";
import { currentUser } from "@/lib/auth/guard";
import { authEnabled } from "@/lib/auth/state";

export async function SignOutButton() {
  if (!authEnabled() || !(await currentUser())) return null;
  return (
    <form action="/api/auth/logout" method="post" className="ml-auto flex items-center gap-3">
      <Link href="/devices" className="text-sm text-muted hover:underline">
        Signed-in devices
      </Link>
      <button
        type="submit"
        className="rounded border border-line px-2 py-0.5 text-sm hover:bg-[var(--panel)] focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]"
      >
        Sign out
      </button>
    </form>
  );
}
