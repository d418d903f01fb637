"use client";
/**
 * The session list's filters and grouping (docs/ui.md "Pages", `/`): agent, project and model,
 * each value with its number of live sessions (GET /api/sessions/facets), the time of last
 * activity, and what to group the list by. The values narrow the list on the server (GET
 * /api/sessions takes them); a value no count lists (a project past the first 300) still shows.
 */
import { useQuery } from "@tanstack/react-query";
import type { FacetCount, SessionFacets } from "@/lib/types/session";
import { getJson, keys } from "@/lib/query/keys";
import { groupDigits } from "@/lib/text/group-digits";
import { ACTIVE, ACTIVE_LABELS, type Active, agentName, GROUP_BY, type GroupBy, projectName } from "./list-groups";

/** What the list shows: the server's filters, the "Active" preset and the grouping. */
export interface ListView {
  agent?: string;
  project?: string;
  model?: string;
  active: Active;
  groupBy: GroupBy;
}

export const GROUP_LABELS: Record<GroupBy, string> = { none: "Nothing", day: "Day", project: "Project", agent: "Agent", model: "Model" };

export function isFiltered(view: ListView): boolean {
  return view.agent !== undefined || view.project !== undefined || view.model !== undefined || view.active !== "any";
}

export function useSessionFacets() {
  return useQuery({
    queryKey: keys.sessionFacets(),
    queryFn: ({ signal }) => getJson<SessionFacets>("/api/sessions/facets", { signal }),
    staleTime: 30_000,
  });
}

const select = "max-w-56 rounded border border-line bg-[var(--bg)] px-2 py-1 text-sm";

/** Options of one facet: "All …" (value ""), then each value with its count; `current` kept when no count lists it. */
function FacetSelect(props: {
  label: string;
  all: string;
  values: readonly FacetCount[];
  current: string | undefined;
  name: (value: string) => string;
  onChange: (value: string | undefined) => void;
}) {
  const { values, current } = props;
  const listed = current === undefined || values.some((v) => v.value === current);
  // "\u0000" cannot be a value (the server refuses NUL): it stands for "all".
  return (
    <label className="flex items-center gap-1.5 text-sm">
      <span className="text-muted">{props.label}</span>
      <select aria-label={props.label} className={select} value={current ?? "\u0000"} onChange={(e) => props.onChange(e.target.value === "\u0000" ? undefined : e.target.value)}>
        <option value={"\u0000"}>{props.all}</option>
        {!listed && current !== undefined && <option value={current}>{props.name(current)}</option>}
        {values.map((v) => (
          <option key={v.value} value={v.value}>
            {props.name(v.value)} ({groupDigits(v.sessions)})
          </option>
        ))}
      </select>
    </label>
  );
}

/** A select over a fixed list of choices, each with its name. */
function ChoiceSelect<C extends string>(props: { label: string; choices: readonly C[]; names: Record<C, string>; value: C; onChange: (value: C) => void }) {
  return (
    <label className="flex items-center gap-1.5 text-sm">
      <span className="text-muted">{props.label}</span>
      <select aria-label={props.label} className={select} value={props.value} onChange={(e) => props.onChange(e.target.value as C)}>
        {props.choices.map((c) => (
          <option key={c} value={c}>
            {props.names[c]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Project names: the folder's last part, or the whole path where two projects share it. */
function projectNamer(projects: readonly FacetCount[]): (cwd: string) => string {
  const seen = new Map<string, number>();
  for (const p of projects) seen.set(projectName(p.value), (seen.get(projectName(p.value)) ?? 0) + 1);
  return (cwd) => ((seen.get(projectName(cwd)) ?? 0) > 1 ? cwd : projectName(cwd));
}

/**
 * `searching`: a search's results are on their way; said at the end of this row, not on a line of
 * its own above the list, which moved the rows under the pointer as it came and went.
 */
export function ListFilters({ view, onChange, searching }: { view: ListView; onChange: (next: ListView) => void; searching: boolean }) {
  const facets = useSessionFacets();
  const f = facets.data;
  const set = (patch: Partial<ListView>) => {
    const next = { ...view, ...patch };
    for (const k of ["agent", "project", "model"] as const) if (next[k] === undefined) delete next[k];
    onChange(next);
  };
  return (
    <fieldset aria-label="Filter and group sessions" className="m-0 flex min-w-0 flex-wrap items-center gap-x-4 gap-y-2 border-0 p-0">
      <FacetSelect label="Agent" all="All agents" values={f?.agents ?? []} current={view.agent} name={(v) => agentName(v)} onChange={(agent) => set({ agent })} />
      <FacetSelect label="Project" all="All projects" values={f?.projects ?? []} current={view.project} name={projectNamer(f?.projects ?? [])} onChange={(project) => set({ project })} />
      <FacetSelect label="Model" all="All models" values={f?.models ?? []} current={view.model} name={(v) => v} onChange={(model) => set({ model })} />
      <ChoiceSelect label="Active" choices={ACTIVE} names={ACTIVE_LABELS} value={view.active} onChange={(active) => set({ active })} />
      <ChoiceSelect label="Group by" choices={GROUP_BY} names={GROUP_LABELS} value={view.groupBy} onChange={(groupBy) => set({ groupBy })} />
      {isFiltered(view) && (
        <button type="button" className="text-sm underline" onClick={() => onChange({ active: "any", groupBy: view.groupBy })}>
          Clear filters
        </button>
      )}
      {facets.error && <span className="text-sm text-muted">Counts unavailable: {facets.error.message}</span>}
      {searching && <span className="text-sm text-muted">Searching…</span>}
    </fieldset>
  );
}
