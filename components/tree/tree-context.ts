"use client";
/**
 * What node components may ask of the canvas, without new props on every node (which
 * would defeat `memo`): open the entry menu, run a menu action, unfold a run, expand a turn.
 * The canvas provides one stable value; only `menuFor` changes (when a menu opens).
 */
import { createContext, useContext } from "react";
import type { TreeModel } from "@/components/tree/hooks/use-tree-model";
import { type CommonData, type ContextAction, entryIdOf, isGroupId, type TreeNode } from "@/components/tree/types";
import type { BranchCost } from "@/lib/usage/branches";

/** What the entry menu offers beyond the common items (docs/engine.md "Arbor extensions around compaction"). */
export interface MenuFacts {
  /** A pinnable entry (a message, custom message or branch summary): offer "Pin" or "Unpin". */
  pin?: "pin" | "unpin";
  /** A compaction node: "Compact again with…", "Compare and choose…", Undo (on the path) or Redo. */
  compaction?: { active: boolean };
  /** Off the current path: "Archive branch"; inside a shown archived branch: "Restore branch" (§19.4). */
  archive?: "archive" | "restore";
}

const PINNABLE_TYPES: ReadonlySet<string> = new Set(["message", "custom_message"]);

function archiveFact(data: CommonData): MenuFacts {
  if (data.archived) return { archive: "restore" };
  return data.isActive ? {} : { archive: "archive" };
}

export function menuFacts(nodeType: string, data: CommonData & { entryType?: string }): MenuFacts {
  if (nodeType === "compaction") return { compaction: { active: data.isActive }, ...archiveFact(data) };
  const pinnable = nodeType === "branchSummary" || (nodeType === "entry" && PINNABLE_TYPES.has(data.entryType ?? ""));
  return { ...(pinnable ? { pin: data.pinned ? "unpin" : "pin" } : {}), ...archiveFact(data) };
}

export interface MenuRequest extends MenuFacts {
  id: string;
  /** A collapsed overview turn (`turn:<first entry id>`): the turn's items. */
  turn?: boolean;
  /** A span of turns (`span:<first entry id>`, spans.ts): the turn's items, "Show turns". */
  span?: boolean;
  /** Offer "Edit and resend" (user messages only). */
  canEditResend: boolean;
  /** Where to open, in client coordinates. */
  x: number;
  y: number;
  /** Focus returns here when the menu closes. */
  returnFocus: HTMLElement | null;
}

export interface TreeActions {
  openMenu: (request: MenuRequest) => void;
  contextAction: (action: ContextAction, id: string) => void;
  unfold: (entryIds: readonly string[]) => void;
  /** Show a collapsed overview turn (`turn:<first entry id>`) as its entries. */
  expandTurn: (turnId: string) => void;
  /** Id of the node whose menu is open, if any (for aria-expanded). */
  menuFor: string | null;
}

/** The menu of a node (without where it opens). */
export function menuRequestOf(node: TreeNode): Omit<MenuRequest, "x" | "y" | "returnFocus"> {
  if (node.type === "turn") return { id: node.id, turn: true, canEditResend: node.data.startsWithUser, ...archiveFact(node.data) };
  if (node.type === "span") return { id: node.id, turn: true, span: true, canEditResend: false, ...archiveFact(node.data) };
  return { id: node.id, canEditResend: node.type === "entry" && node.data.isUserMessage, ...menuFacts(node.type, node.data) };
}

/**
 * The entry "Continue from here" starts from for a node id: the entry itself, a fold's first entry,
 * and a collapsed turn's or span's LAST entry ("Continue after this turn").
 */
export function continueTarget(model: TreeModel, id: string): string {
  if (!isGroupId(id)) return entryIdOf(id);
  const node = model.layout.nodes[model.layout.index.get(id) ?? -1];
  return node?.type === "turn" || node?.type === "span" ? (node.data.entryIds.at(-1) ?? entryIdOf(id)) : entryIdOf(id);
}

/**
 * Each branch segment's cost by its first entry's id (lib/usage/branches.ts), for the badges on
 * the nodes that start a branch; empty until the session's usage has loaded.
 */
export const BranchCostContext = createContext<ReadonlyMap<string, BranchCost>>(new Map());

export function useBranchCost(firstEntryId: string): BranchCost | undefined {
  return useContext(BranchCostContext).get(firstEntryId);
}

/**
 * The "colour by cost" view: each entry's heat, its branch segment's cost over the costliest
 * segment's (0–1, lib/usage/branches.ts costHeat); null while the view is off.
 */
export const CostHeatContext = createContext<ReadonlyMap<string, number> | null>(null);

/** The node's heat (the highest of its entries'), or undefined while the view is off. */
export function useCostHeat(entryIds: readonly string[]): number | undefined {
  const heat = useContext(CostHeatContext);
  if (!heat) return undefined;
  return entryIds.reduce((m, id) => Math.max(m, heat.get(id) ?? 0), 0);
}

const noop = () => {};
const fallback: TreeActions = { openMenu: noop, contextAction: noop, unfold: noop, expandTurn: noop, menuFor: null };

export const TreeActionsContext = createContext<TreeActions>(fallback);

export function useTreeActions(): TreeActions {
  return useContext(TreeActionsContext);
}
