"use client";
/**
 * The Trash (ui.md "Pages"): sessions deleted from the list, each with when it was deleted and
 * when it goes for good, "Restore" (back to the list, unchanged) and "Delete now".
 */
import Link from "next/link";
import { useState } from "react";
import { deleteSessionForGood, restoreSession } from "@/app/actions";
import type { TrashedSession } from "@/lib/types/session";
import { formatCount, formatWhen, useNow } from "./format";

export function TrashList({ initial, days }: { initial: TrashedSession[]; days: number }) {
  const now = useNow();
  // Relative times need the browser's clock: blank while rendered on the server (format.ts useNow).
  const when = (iso: string) => (now === null ? "" : formatWhen(iso, now));
  const [sessions, setSessions] = useState(initial);
  const [status, setStatus] = useState<{ text: string; error?: boolean } | null>(null);
  const act = async (s: TrashedSession, kind: "restore" | "delete") => {
    const r = kind === "restore" ? await restoreSession({ id: s.id }) : await deleteSessionForGood({ id: s.id });
    if (!r.ok) return setStatus({ text: r.message ?? "That did not work; try again.", error: true });
    setSessions((list) => list.filter((x) => x.id !== s.id));
    setStatus({ text: kind === "restore" ? `Restored “${s.title ?? "Untitled session"}”` : `Deleted “${s.title ?? "Untitled session"}” for good` });
  };
  return (
    <div className="mx-auto max-w-4xl space-y-4 p-6">
      <h1 className="text-2xl font-semibold">Trash</h1>
      <p className="text-sm text-muted">Deleted sessions stay here for {days} days, then they are deleted for good. Restore brings one back unchanged.</p>
      <p role="status" className={`min-h-5 text-sm ${status?.error ? "text-red-700 dark:text-red-300" : ""}`}>
        {status?.text}
        {status && !status.error ? (
          <>
            {" "}
            <Link href="/" className="underline">
              Back to the sessions
            </Link>
          </>
        ) : null}
      </p>
      {sessions.length === 0 ? (
        <p className="text-muted">The trash is empty.</p>
      ) : (
        <ul aria-label="Deleted sessions" className="divide-y divide-[var(--border)] rounded border border-line">
          {sessions.map((s) => (
            <li key={s.id} aria-label={s.title ?? "Untitled session"} className="flex flex-wrap items-center gap-3 px-4 py-2">
              <div className="min-w-0 flex-1">
                <div className="truncate">{s.title ?? "Untitled session"}</div>
                <div className="text-xs text-muted">
                  {formatCount(s.entryCount, "entry", "entries")} · deleted {when(s.deletedAt)} · deleted for good {when(s.purgeAt)}
                </div>
              </div>
              <button type="button" onClick={() => void act(s, "restore")} className="rounded border border-line px-2 py-1 text-sm">
                Restore
              </button>
              <button type="button" onClick={() => void act(s, "delete")} className="rounded border border-line px-2 py-1 text-sm">
                Delete now
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
