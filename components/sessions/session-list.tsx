"use client";
/** The home page: "New session" and the list of sessions, newest activity first. */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createSession } from "@/app/actions";
import { sessionListOptions } from "@/lib/query/keys";

function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function SessionList() {
  const router = useRouter();
  const { data, error } = useQuery(sessionListOptions());
  const [pending, startTransition] = useTransition();
  const [createError, setCreateError] = useState<string | null>(null);

  const onNew = () =>
    startTransition(async () => {
      setCreateError(null);
      const result = await createSession({});
      if (result.ok) router.push(`/sessions/${result.data.id}`);
      else setCreateError(result.message ?? "Could not create a session.");
    });

  const sessions = data?.sessions ?? [];
  return (
    <div className="mx-auto max-w-4xl p-6">
      <div className="mb-6 flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">Sessions</h1>
        <button
          type="button"
          onClick={onNew}
          disabled={pending}
          className="rounded bg-[var(--color-accent)] px-3 py-1.5 font-medium text-white disabled:opacity-60 dark:text-black"
        >
          {pending ? "Creating…" : "New session"}
        </button>
      </div>
      {createError && (
        <p role="alert" className="mb-4 text-red-700 dark:text-red-300">
          {createError}
        </p>
      )}
      {error && (
        <p role="alert" className="mb-4 text-red-700 dark:text-red-300">
          Could not load sessions: {error.message}
        </p>
      )}
      {sessions.length === 0 ? (
        <p className="text-muted">
          Arbor shows agent sessions as trees you can chat in, compact and branch. Start a new session, or import a pi /
          oh-my-pi session file.
        </p>
      ) : (
        <ul aria-label="Sessions" className="divide-y divide-[var(--border)] rounded border border-line">
          {sessions.map((s) => (
            <li key={s.id} className="flex items-center justify-between gap-4 px-4 py-3">
              <Link href={`/sessions/${s.id}`} className="font-medium hover:underline">
                {s.title ?? "Untitled session"}
              </Link>
              <span className="text-sm text-muted">
                {s.model ? `${s.model} · ` : ""}
                {s.entryCount} {s.entryCount === 1 ? "entry" : "entries"} · {formatWhen(s.lastActivityAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
