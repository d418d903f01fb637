"use client";
/**
 * The password form. With JavaScript it posts JSON to /api/auth/login and shows the error in
 * place; without, it is a plain form post that the route answers with a redirect.
 */
import { type FormEvent, useState } from "react";

const input =
  "w-full rounded border border-line bg-[var(--bg)] px-2 py-1.5 focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]";
const primary =
  "rounded bg-[var(--color-accent)] px-3 py-1.5 text-sm font-medium text-white hover:opacity-90 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--color-accent)] dark:text-black";

export function LoginForm({ next, initialError }: { next: string; initialError?: string | undefined }) {
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setPending(true);
    try {
      const res = await fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ password, next }),
      });
      const body = (await res.json().catch(() => ({}))) as { next?: string; error?: string };
      if (res.ok) {
        // A full load, so the layout renders for the signed-in user.
        window.location.assign(body.next ?? next);
        return;
      }
      setError(body.error ?? `Sign-in failed (HTTP ${res.status}); try again.`);
    } catch {
      setError("Arbor did not answer; check that the server is running and try again.");
    }
    setPending(false);
  }

  return (
    <form method="post" action="/api/auth/login" onSubmit={onSubmit} aria-label="Sign in" className="flex flex-col gap-3">
      <input type="hidden" name="next" value={next} />
      <label htmlFor="password" className="text-sm font-medium">
        Password
      </label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "login-error" : undefined}
        className={input}
      />
      {error ? (
        <p id="login-error" role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <button type="submit" className={primary} disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
