"use client";
/**
 * The session page's title bar: its title — in the page and in the browser tab, kept current from
 * the session's data, so a rename or a new session's first message shows without a reload —
 * "Rename", and "Copy resume command" for the agent the session came from (resume-command.ts).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { renameSession } from "@/app/actions";
import { CopyButton } from "@/components/chat/messages/copy-button";
import { invalidateSession } from "@/lib/query/keys";
import { sessionDataOptions } from "@/lib/query/session";
import { resumeCommand } from "./resume-command";

export function SessionTitle({ sessionId }: { sessionId: string }) {
  const qc = useQueryClient();
  const { data } = useQuery(sessionDataOptions(sessionId));
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const title = data?.session.title ?? "Untitled session";
  const resume = data ? resumeCommand(data.session) : null;
  // The tab's title too (the layout's metadata says "Arbor" until then).
  useEffect(() => {
    document.title = `${title} · Arbor`;
  }, [title]);
  const save = async (text: string) => {
    const r = await renameSession({ id: sessionId, title: text });
    if (!r.ok) return setError(r.message ?? "Could not rename the session.");
    setEditing(null);
    setError(null);
    await invalidateSession(qc, sessionId);
    void qc.invalidateQueries({ queryKey: ["sessions"] });
  };
  return (
    <>
      {editing === null ? (
        <h1 className="min-w-0 flex-1 basis-40 truncate font-semibold">{title}</h1>
      ) : (
        <form
          className="min-w-0 flex-1 basis-40"
          onSubmit={(e) => {
            e.preventDefault();
            void save(editing);
          }}
        >
          <input
            // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
            autoFocus
            aria-label="Session title"
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && setEditing(null)}
            className="w-full rounded border border-line bg-[var(--bg)] px-2 py-0.5 font-semibold"
          />
        </form>
      )}
      {error && <span role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</span>}
      {editing === null && (
        <button type="button" onClick={() => setEditing(data?.session.title ?? "")} className="text-sm text-muted underline">
          Rename
        </button>
      )}
      {resume && <CopyButton text={resume.command} label={`Copy the command that resumes this session in ${resume.agent}`} shown="Copy resume command" />}
    </>
  );
}
