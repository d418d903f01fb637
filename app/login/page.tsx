import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeNextPath } from "@/lib/auth/access";
import { currentUser } from "@/lib/auth/guard";
import { tooManyAttemptsMessage, WRONG_PASSWORD } from "@/lib/auth/sign-in";
import { authEnabled } from "@/lib/auth/state";
import { LoginForm } from "./login-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Arbor" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The error a form post without JavaScript was sent back with (app/api/auth/login). */
function errorFrom(search: Search): string | undefined {
  const error = one(search.error);
  if (error === "wrong") return WRONG_PASSWORD;
  if (error === "empty") return "Enter the password";
  if (error === "rate") {
    const seconds = Number(one(search.retry));
    return tooManyAttemptsMessage(Number.isInteger(seconds) && seconds > 0 && seconds <= 3600 ? seconds : 60);
  }
  return undefined;
}

/** Sign in (only when ARBOR_PASSWORD is set; otherwise there is nothing to sign in to). */
export default async function LoginPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const next = safeNextPath(one(search.next));
  if (!authEnabled() || (await currentUser())) redirect(next);
  return (
    <div className="mx-auto max-w-sm p-8">
      <h1 className="mb-2 text-xl font-semibold">Sign in</h1>
      <p className="mb-6 text-sm text-muted">This Arbor is protected by a password.</p>
      <LoginForm next={next} initialError={errorFrom(search)} />
    </div>
  );
}
