"use client";
/**
 * The list's rows, under group headers when the list is grouped (list-groups.ts): each group a
 * headed list of its loaded sessions; a project, agent or model group offers "Only these", which
 * filters the list to it. Ungrouped, one list named "Sessions".
 */
import type { SessionSummary } from "@/lib/types/session";
import { formatCount } from "./format";
import type { ListView } from "./list-filters";
import { groupSessions } from "./list-groups";
import { SessionRow } from "./session-row";

const list = "divide-y divide-[var(--border)] rounded border border-line";

export function SessionGroups(props: {
  sessions: readonly SessionSummary[];
  view: ListView;
  now: number | null;
  busy: boolean;
  /** More pages to load: group sizes are "shown so far". */
  partial: boolean;
  onView: (next: ListView) => void;
  onRename: (id: string, title: string) => void;
  onDelete: (session: SessionSummary) => void;
}) {
  const { view, now } = props;
  const rows = (sessions: readonly SessionSummary[], name: string) => (
    <ul aria-label={name} aria-busy={props.busy} className={list}>
      {sessions.map((s) => (
        <SessionRow key={s.id} session={s} now={now} onRename={props.onRename} onDelete={props.onDelete} />
      ))}
    </ul>
  );
  // Day headers need the browser's clock and zone: ungrouped until it is known (server render).
  if (view.groupBy === "none" || now === null) return rows(props.sessions, "Sessions");
  const by = view.groupBy;
  return (
    <div className="space-y-5">
      {groupSessions(props.sessions, by, now).map((g) => {
        const count = props.partial ? `${formatCount(g.sessions.length, "session", "sessions")} shown` : formatCount(g.sessions.length, "session", "sessions");
        const only = by === "day" || view[by] !== undefined ? null : () => props.onView({ ...view, [by]: g.key, groupBy: "none" });
        return (
          <section key={g.key} aria-label={g.label}>
            <div className="mb-1.5 flex flex-wrap items-baseline gap-x-3">
              <h2 className="font-semibold" title={by === "project" && g.key ? g.key : undefined}>
                {g.label}
              </h2>
              <span className="text-sm text-muted">{count}</span>
              {only && (
                <button type="button" className="text-sm underline" onClick={only}>
                  Only these
                </button>
              )}
            </div>
            {rows(g.sessions, `Sessions: ${g.label}`)}
          </section>
        );
      })}
    </div>
  );
}
