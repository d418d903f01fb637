/**
 * The session list's grouping and its "Active" filter (docs/ui.md "Pages", `/`). Pure: no React.
 *
 * - `groupSessions`: the loaded rows, in the list's order, under headers: by day of last activity
 *   (the list's own order, so each day is one run), or by project, agent or model (groups in the
 *   order of their most recent session, each keeping the list's order inside). Rows loaded later
 *   join their group.
 * - `activeRange`: an "Active" preset as the list's `from` / `before` bounds, from the start of
 *   the browser's local day, so a preset's bounds (and the list's cache key) stay the same all day.
 */
import { FORMAT_LABELS, type FormatId, formatName } from "@/lib/formats/types";
import type { SessionSummary } from "@/lib/types/session";

export const GROUP_BY = ["none", "day", "project", "agent", "model"] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export const ACTIVE = ["any", "today", "7d", "30d", "older"] as const;
export type Active = (typeof ACTIVE)[number];

export const ACTIVE_LABELS: Record<Active, string> = {
  any: "Any time",
  today: "Today",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  older: "Over 30 days ago",
};

export interface SessionGroup {
  /** The filter value the group stands for (a cwd, a format, a model; the day's ISO date). */
  key: string;
  label: string;
  sessions: SessionSummary[];
}

/** A format's name as people call the tool ("Claude Code"); sessions made in Arbor: "Arbor". */
export function agentName(agent: string | undefined): string {
  if (!agent) return "Arbor";
  return agent in FORMAT_LABELS ? formatName(agent as FormatId) : agent;
}

/** A project's short name: its folder's last part ("arbor" for /home/u/src/arbor); "No project" for none. */
export function projectName(cwd: string): string {
  const parts = cwd.split(/[\\/]+/).filter((p) => p !== "");
  return parts.at(-1) ?? (cwd === "" ? "No project" : cwd);
}

function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

function startOfDay(ms: number, daysBack = 0): Date {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() - daysBack);
}

/** "Today", "Yesterday", "Wednesday, Dec 3" within a week, else "Nov 20, 2025". */
export function dayLabel(iso: string, now: number): string {
  const at = Date.parse(iso);
  const day = localDay(at);
  if (day === localDay(now)) return "Today";
  if (day === localDay(startOfDay(now, 1).getTime())) return "Yesterday";
  const d = new Date(at);
  if (at >= startOfDay(now, 6).getTime()) return d.toLocaleDateString("en-US", { weekday: "long", month: "short", day: "numeric" });
  return d.toLocaleDateString("en-US", { dateStyle: "medium" });
}

function keyOf(s: SessionSummary, by: Exclude<GroupBy, "none">): string {
  if (by === "day") return localDay(Date.parse(s.lastActivityAt));
  if (by === "project") return s.project ?? "";
  if (by === "agent") return s.agent ?? "";
  return s.model ?? "";
}

function labelOf(key: string, first: SessionSummary, by: Exclude<GroupBy, "none">, now: number): string {
  if (by === "day") return dayLabel(first.lastActivityAt, now);
  if (by === "project") return projectName(key);
  if (by === "agent") return agentName(key || undefined);
  return key || "No model";
}

export function groupSessions(sessions: readonly SessionSummary[], by: GroupBy, now: number): SessionGroup[] {
  if (by === "none") return [{ key: "", label: "", sessions: [...sessions] }];
  const groups = new Map<string, SessionGroup>();
  for (const s of sessions) {
    const key = keyOf(s, by);
    let group = groups.get(key);
    if (!group) {
      group = { key, label: labelOf(key, s, by, now), sessions: [] };
      groups.set(key, group);
    }
    group.sessions.push(s);
  }
  return [...groups.values()];
}

/** The list's `from` / `before` bounds (ISO) of an "Active" preset, days counted from local midnight. */
export function activeRange(active: Active, now: number): { from?: string; before?: string } {
  switch (active) {
    case "any":
      return {};
    case "today":
      return { from: startOfDay(now).toISOString() };
    case "7d":
      return { from: startOfDay(now, 6).toISOString() };
    case "30d":
      return { from: startOfDay(now, 29).toISOString() };
    case "older":
      return { before: startOfDay(now, 29).toISOString() };
  }
}
