"use client";
/**
 * Pieces shared by the canvas node components: hidden connection handles, the token badge, the
 * branch cost badge,
 * marker chips (always a word, never colour alone) and the "⋯" entry-menu button.
 */
import { Handle, Position } from "@xyflow/react";
import type { MouseEvent } from "react";
import { formatTokens } from "@/components/tree/format";
import { type MenuFacts, useBranchCost, useCostHeat, useTreeActions } from "@/components/tree/tree-context";
import type { CSSProperties } from "react";
import { formatMicros } from "@/lib/usage/prices";
import type { CommonData } from "@/components/tree/types";

/**
 * Handles for the edges; read-only canvas, so they are invisible and not connectable.
 * Ids match the static `handles` toFlow puts on every node.
 */
export function NodeHandles({ kept }: { kept: "in" | "out" }) {
  return (
    <>
      <Handle id="in" type="target" position={Position.Top} isConnectable={false} className="tree-handle" />
      <Handle id="out" type="source" position={Position.Bottom} isConnectable={false} className="tree-handle" />
      <Handle
        id={kept === "in" ? "kept-in" : "kept-out"}
        type={kept === "in" ? "target" : "source"}
        position={Position.Right}
        isConnectable={false}
        className="tree-handle"
      />
    </>
  );
}

export function TokenBadge({ tokens }: { tokens: number }) {
  if (tokens <= 0) return null;
  return (
    <span className="tree-tokens">
      <span className="sr-only">about </span>
      {formatTokens(tokens)}
    </span>
  );
}

/**
 * The cost of the branch this node starts (a child of a branch point): dollars, with the tokens
 * and calls in the title. Nothing for a node that starts no branch or a branch without calls.
 */
export function BranchCostBadge({ firstEntryId }: { firstEntryId: string }) {
  const cost = useBranchCost(firstEntryId);
  if (!cost || cost.forkedFrom === null) return null;
  return (
    <span
      className="tree-chip tree-chip--cost"
      data-testid="branch-cost"
      title={`This branch: ${formatMicros(cost.costMicros)}, ${cost.tokens.toLocaleString("en-US")} tokens in ${cost.calls} model call${cost.calls === 1 ? "" : "s"}`}
    >
      <span className="sr-only">Branch cost </span>
      {formatMicros(cost.costMicros)}
    </span>
  );
}

/** Visible marker chips of a node: its label and the "first kept" flag (words, not colour). */
export function NodeFlags({ data }: { data: CommonData }) {
  return (
    <>
      {data.label ? (
        <span className="tree-chip tree-chip--label" title={`Label: ${data.label}`}>
          <span className="sr-only">Label: </span>
          {data.label}
        </span>
      ) : null}
      {data.isFirstKept ? <span className="tree-chip tree-chip--kept">first kept</span> : null}
      {data.archived ? (
        <span className="tree-chip tree-chip--archived" title="In an archived branch: hidden unless Archived is on">
          archived
        </span>
      ) : null}
      {data.pinned ? (
        <span className="tree-chip tree-chip--pin" title="Pinned: kept verbatim through every compaction">
          pinned
        </span>
      ) : null}
    </>
  );
}

/** Screen-reader words for what the canvas shows by ring, muting and bands; render last. */
export function NodeStatus({ data }: { data: CommonData }) {
  const words = [
    data.isLeaf && (data.hiddenLeaf ? `you are here: the current leaf, ${data.hiddenLeaf}, follows and is hidden by the filter` : "you are here"),
    !data.isActive && "off the current path",
    data.summarisedBy.length > 0 && "summarised by a compaction",
  ].filter(Boolean);
  return words.length > 0 ? <span className="sr-only">{`(${words.join(", ")})`}</span> : null;
}

/** The "⋯" button opening the entry menu (Inspect, Continue from here…, Label…, Edit and resend, Fork, Copy link). */
export function EntryMenuButton({
  id,
  canEditResend,
  facts,
  turn,
  span,
}: {
  id: string;
  canEditResend: boolean;
  facts?: MenuFacts;
  turn?: boolean;
  span?: boolean;
}) {
  const actions = useTreeActions();
  const open = (e: MouseEvent<HTMLButtonElement>) => {
    e.stopPropagation(); // not a click on the node: that would select it
    const r = e.currentTarget.getBoundingClientRect();
    actions.openMenu({ id, canEditResend, ...facts, ...(turn ? { turn } : {}), ...(span ? { span } : {}), x: r.left, y: r.bottom + 2, returnFocus: e.currentTarget });
  };
  return (
    <button
      type="button"
      className="tree-menu-button nodrag nopan"
      aria-label="Entry actions"
      aria-haspopup="menu"
      aria-expanded={actions.menuFor === id}
      onClick={open}
    >
      <span aria-hidden="true">⋯</span>
    </button>
  );
}

/** Class list helper: truthy strings joined by spaces. */
export function cx(...parts: (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(" ");
}

/** Classes every tree node shares: active path, leaf ring, selection, search match. */
/**
 * The "colour by cost" view's tint of a node (its branch's share of the costliest branch), and
 * the words a screen reader and a tooltip get: colour is never the only carrier.
 */
export function useHeatStyle(entryIds: readonly string[]): { className?: string; style?: CSSProperties; title?: string } {
  const heat = useCostHeat(entryIds);
  if (heat === undefined) return {};
  const percent = Math.round(heat * 100);
  return {
    className: "tree-node--heat",
    style: { "--cost-heat": `${percent}%` } as CSSProperties,
    title: `This branch cost ${percent} % of the costliest branch`,
  };
}

export function nodeStateClasses(data: CommonData, selected: boolean): string {
  return cx(
    data.isActive ? "tree-node--active" : "tree-node--muted",
    data.isLeaf && "tree-node--leaf",
    selected && "tree-node--selected",
    data.matchesSearch && "tree-node--match",
  );
}
