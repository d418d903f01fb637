"use client";
/**
 * Toolbar of the session tree (ui.md pane 2): filter, search, the `(i/N)` footer with the
 * filter tag (session-engine.md §16.3 formatFooter), "Fit view", "Go to current leaf", "Jump to" (the
 * current leaf, first prompt, last error, compactions, labels, branch points, file edits, turns), the Turns / Entries switch (semantic zoom), "Minimap", "Archived (N)" (shows the archived
 * branches, when there are some) and the
 * Canvas / List switch. Stateless: the canvas owns every value.
 */
import type { Ref } from "react";
import type { JumpGroup } from "@/components/tree/model/jump-targets";
import type { ZoomLevel } from "@/components/tree/hooks/use-tree-model";
import { FILTERS, type TreeFilter } from "@/lib/session/tree/tree-filter";

export type TreeView = "canvas" | "list";

export interface TreeToolbarProps {
  filter: TreeFilter;
  onFilterChange: (filter: TreeFilter) => void;
  search: string;
  onSearchChange: (search: string) => void;
  /** `(i/N)` + filter tag, from formatFooter. */
  footer: string;
  view: TreeView;
  onViewChange: (view: TreeView) => void;
  minimap: boolean;
  onMinimapChange: (on: boolean) => void;
  onFitView: () => void;
  onGoToLeaf: () => void;
  /** False when the session has no current leaf. */
  canGoToLeaf: boolean;
  searchRef?: Ref<HTMLInputElement>;
  zoomLevel: ZoomLevel;
  onZoomLevelChange: (level: ZoomLevel) => void;
  /** The "Jump to" menu (jump-targets.ts). */
  jumpGroups: readonly JumpGroup[];
  onJump: (entryId: string) => void;
  /** Archived branches (session-engine.md §19.4): the "Archived (N)" switch shows them. */
  archivedCount: number;
  showArchived: boolean;
  onShowArchivedChange: (on: boolean) => void;
  /** "Colour by cost" (docs/usage.md): shown when the session has branch costs. */
  colourByCost?: boolean;
  onColourByCostChange?: (on: boolean) => void;
}

const button =
  "rounded border border-line px-2 py-1 text-sm hover:bg-[var(--panel)] focus-visible:outline-2 focus-visible:outline-[var(--color-accent)] disabled:opacity-60";
const pressed = "aria-pressed:bg-[var(--panel)] aria-pressed:font-semibold";

export function TreeToolbar(props: TreeToolbarProps) {
  const { view } = props;
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-line px-2 py-1.5">
      <label className="flex items-center gap-1 text-sm">
        <span>Filter</span>
        <select
          className="rounded border border-line bg-[var(--bg)] px-1 py-1 text-sm"
          value={props.filter}
          onChange={(e) => props.onFilterChange(e.target.value as TreeFilter)}
        >
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <input
        ref={props.searchRef}
        type="search"
        aria-label="Search entries"
        placeholder="Search entries"
        className="w-40 min-w-32 flex-1 rounded border border-line bg-[var(--bg)] px-2 py-1 text-sm"
        value={props.search}
        onChange={(e) => props.onSearchChange(e.target.value)}
      />
      <span className="whitespace-nowrap font-mono text-sm text-muted">
        {props.footer}
      </span>
      {view === "canvas" ? (
        <>
          <button type="button" className={button} onClick={props.onFitView}>
            Fit view
          </button>
          <select
            aria-label="Jump to"
            className="max-w-44 rounded border border-line bg-[var(--bg)] px-1 py-1 text-sm"
            value=""
            disabled={props.jumpGroups.length === 0}
            onChange={(e) => {
              const [g, i] = e.target.value.split(":").map(Number);
              const item = props.jumpGroups[g ?? -1]?.items[i ?? -1];
              if (item) props.onJump(item.entryId);
            }}
          >
            <option value="" disabled>
              Jump to…
            </option>
            {props.jumpGroups.map((group, g) => (
              <optgroup key={group.label} label={group.label}>
                {group.items.map((item, i) => (
                  <option key={`${item.entryId}:${item.text}`} value={`${g}:${i}`}>
                    {item.text}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <fieldset className="m-0 flex border-0 p-0">
            <legend className="sr-only">Zoom level</legend>
            {(["overview", "detail"] as const).map((z) => (
              <button
                key={z}
                type="button"
                className={`${button} ${pressed} ${z === "overview" ? "rounded-r-none" : "-ml-px rounded-l-none"}`}
                aria-pressed={props.zoomLevel === z}
                title={z === "overview" ? "One node per turn" : "One node per entry"}
                onClick={() => props.onZoomLevelChange(z)}
              >
                {z === "overview" ? "Turns" : "Entries"}
              </button>
            ))}
          </fieldset>
          <button
            type="button"
            className={`${button} ${pressed}`}
            aria-pressed={props.minimap}
            onClick={() => props.onMinimapChange(!props.minimap)}
          >
            Minimap
          </button>
          {props.onColourByCostChange ? (
            <button
              type="button"
              className={`${button} ${pressed}`}
              aria-pressed={props.colourByCost === true}
              title="Tint each branch by its share of the costliest branch"
              onClick={() => props.onColourByCostChange?.(!props.colourByCost)}
            >
              Colour by cost
            </button>
          ) : null}
        </>
      ) : null}
      {props.archivedCount > 0 ? (
        <button
          type="button"
          className={`${button} ${pressed}`}
          aria-pressed={props.showArchived}
          title="Show the archived branches (hidden from the map, the list and search)"
          onClick={() => props.onShowArchivedChange(!props.showArchived)}
        >
          Archived ({props.archivedCount})
        </button>
      ) : null}
      <button type="button" className={button} onClick={props.onGoToLeaf} disabled={!props.canGoToLeaf}>
        Go to current leaf
      </button>
      <fieldset className="m-0 flex border-0 p-0">
        <legend className="sr-only">View</legend>
        {(["canvas", "list"] as const).map((v) => (
          <button
            key={v}
            type="button"
            className={`${button} ${pressed} ${v === "canvas" ? "rounded-r-none" : "-ml-px rounded-l-none"}`}
            aria-pressed={view === v}
            onClick={() => props.onViewChange(v)}
          >
            {v === "canvas" ? "Canvas" : "List"}
          </button>
        ))}
      </fieldset>
    </div>
  );
}
