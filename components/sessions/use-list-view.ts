"use client";
/**
 * The session list's view (list-filters.tsx `ListView`), kept in the page's address so a filtered
 * or grouped list can be linked and survives a reload: `?agent=&project=&model=&active=&group=`.
 * The address is replaced in place (the history API; Next keeps its search params in step), with
 * no request to the server. `filter` is what GET /api/sessions takes, the "Active" preset as
 * dates from this browser's local midnight (list-groups.ts `activeRange`).
 */
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import type { ListFilter } from "@/lib/query/keys";
import type { ListView } from "./list-filters";
import { ACTIVE, type Active, activeRange, GROUP_BY, type GroupBy } from "./list-groups";

function parseView(params: URLSearchParams): ListView {
  const active = params.get("active");
  const group = params.get("group");
  const view: ListView = {
    active: (ACTIVE as readonly string[]).includes(active ?? "") ? (active as Active) : "any",
    groupBy: (GROUP_BY as readonly string[]).includes(group ?? "") ? (group as GroupBy) : "none",
  };
  for (const k of ["agent", "project", "model"] as const) {
    const v = params.get(k);
    if (v !== null && !v.includes("\u0000")) view[k] = v;
  }
  return view;
}

function viewParams(view: ListView): URLSearchParams {
  const params = new URLSearchParams();
  for (const k of ["agent", "project", "model"] as const) if (view[k] !== undefined) params.set(k, view[k]!);
  if (view.active !== "any") params.set("active", view.active);
  if (view.groupBy !== "none") params.set("group", view.groupBy);
  return params;
}

export function useListView(): { view: ListView; setView: (next: ListView) => void; filter: ListFilter } {
  const params = useSearchParams();
  const [view, setState] = useState(() => parseView(new URLSearchParams(params.toString())));
  const setView = useCallback((next: ListView) => {
    setState(next);
    const query = viewParams(next).toString();
    window.history.replaceState(null, "", query ? `?${query}` : window.location.pathname);
  }, []);
  const filter = useMemo((): ListFilter => {
    const f: ListFilter = { ...activeRange(view.active, Date.now()) };
    if (view.agent !== undefined) f.agent = view.agent;
    if (view.project !== undefined) f.project = view.project;
    if (view.model !== undefined) f.model = view.model;
    return f;
  }, [view.agent, view.project, view.model, view.active]);
  return { view, setView, filter };
}
