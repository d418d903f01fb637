"use client";
/**
 * One row of the session list: title link, model, entry count, cost, last activity, a badge with
 * the number of secrets found in it (docs/secrets.md), the search
 * snippet when the row matched a search in its entries, and the "Session actions" menu.
 * Rename edits the title in place: Enter (or leaving the field) saves, Escape cancels.
 * The whole row opens the session: the title link's ::after covers the row (one link for
 * keyboards and screen readers), and the actions menu sits above it.
 */
import { AgentIcon } from "./agent-icon";
import { projectName } from "./list-groups";
import Link from "next/link";
import { memo, useEffect, useRef, useState } from "react";
import type { SessionSummary } from "@/lib/types/session";
import { formatMicros } from "@/lib/usage/prices";
import { formatCount, formatFullDate, formatWhen } from "./format";
import { LiveBadge } from "./live-badge";
import { SessionActionsMenu } from "./session-actions-menu";

export interface SessionRowProps {
  session: SessionSummary;
  now: number | null;
  onRename: (id: string, title: string) => void;
  onDelete: (session: SessionSummary) => void;
}

function RenameField(props: { initial: string; onDone: (title: string | null) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const finished = useRef(false);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const finish = (title: string | null) => {
    if (finished.current) return;
    finished.current = true;
    props.onDone(title);
  };
  return (
    <input
      ref={input}
      aria-label="Session title"
      defaultValue={props.initial}
      maxLength={200}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          finish(e.currentTarget.value);
        } else if (e.key === "Escape") {
          e.preventDefault();
          finish(null);
        }
      }}
      onBlur={(e) => finish(e.currentTarget.value)}
      className="w-full rounded border border-line bg-[var(--bg)] px-2 py-0.5 font-medium focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]"
    />
  );
}

export const SessionRow = memo(function SessionRow({ session: s, now, onRename, onDelete }: SessionRowProps) {
  const [editing, setEditing] = useState(false);
  const actions = useRef<HTMLButtonElement>(null);
  const title = s.title ?? "Untitled session";
  const href = `/sessions/${encodeURIComponent(s.id)}${s.match ? `?entry=${encodeURIComponent(s.match.entryId)}` : ""}`;

  const done = (next: string | null) => {
    setEditing(false);
    if (next !== null && next.trim() !== (s.title ?? "")) onRename(s.id, next);
    queueMicrotask(() => actions.current?.focus());
  };

  return (
    <li className="relative flex items-start gap-3 px-4 py-3 hover:bg-[var(--panel)]">
      <span className="mt-0.5">
        <AgentIcon agent={s.agent} />
      </span>
      <div className="min-w-0 flex-1">
        {editing ? (
          <RenameField initial={s.title ?? ""} onDone={done} />
        ) : (
          <Link href={href} className="block truncate font-medium after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:underline">
            {title}
          </Link>
        )}
        <p className="mt-0.5 text-sm text-muted">
          {s.project ? (
            <>
              <span title={s.project}>{projectName(s.project)}</span> ·{" "}
            </>
          ) : null}
          {s.model && (
            <>
              <span className="font-mono text-xs">{s.model}</span> ·{" "}
            </>
          )}
          {formatCount(s.entryCount, "entry", "entries")} ·{" "}
          {s.usage && (
            <>
              <span data-testid="session-cost" title={`${s.usage.tokens.toLocaleString("en-US")} tokens`}>
                {s.usage.costMicros > 0 || s.usage.unpricedTokens === 0 ? formatMicros(s.usage.costMicros) : "price unknown"}
              </span>{" "}
              ·{" "}
            </>
          )}
          <time dateTime={s.lastActivityAt} title={now === null ? undefined : formatFullDate(s.lastActivityAt)}>
            {now === null ? "" : formatWhen(s.lastActivityAt, now)}
          </time>{" "}
          <LiveBadge lastActivityAt={s.lastActivityAt} />
          {s.secrets ? (
            <>
              {" "}
              ·{" "}
              <span
                className="rounded bg-amber-100 px-1 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100"
                title="Credentials found in this session; masked in exports and summaries"
              >
                {formatCount(s.secrets, "secret", "secrets")}
              </span>
            </>
          ) : null}
        </p>
        {s.match && s.match.snippet !== "" && (
          <p className="mt-1 line-clamp-2 text-sm text-muted">
            <span className="sr-only">Matched: </span>… {s.match.snippet} …
          </p>
        )}
      </div>
      <div className="relative z-10">
        <SessionActionsMenu sessionId={s.id} buttonRef={actions} onRename={() => setEditing(true)} onDelete={() => onDelete(s)} />
      </div>
    </li>
  );
});
