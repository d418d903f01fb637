"use client";
/**
 * What node components may ask of the canvas, without new props on every node (which
 * would defeat `memo`): open the entry menu, run a menu action, unfold a run, expand a turn.
 * The canvas provides one stable value; only `menuFor` changes (when a menu opens).
 */
import { createContext, useContext } from "react";
import type { CommonData, ContextAction } from "@/components/tree/types";
import type { BranchCost } from "@/lib/usage/branches";

/** What the entry menu offers beyond the common items (docs/engine.md "Arbor extensions around compaction"). */
export interface MenuFacts {
  /** A pinnable entry (a message, custom message or branch summary): offer "Pin" or "Unpin". */
  pin?: "pin" | "unpin";
  /** A compaction node: "Compact again with…", "Compare and choose…", Undo (on the path) or Redo. */
  compaction?: { active: boolean };
}

const PINNABLE_TYPES: ReadonlySet<string> = new Set(["message", "custom_message"]);

export function menuFacts(nodeType: string, data: CommonData & { entryType?: string }): MenuFacts {
  if (nodeType === "compaction") return { compaction: { active: data.isActive } };
  const pinnable = nodeType === "branchSummary" || (nodeType === "entry" && PINNABLE_TYPES.has(data.entryType ?? ""));
  return pinnable ? { pin: data.pinned ? "unpin" : "pin" } : {};
}

export interface MenuRequest extends MenuFacts {
  id: string;
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

/**
 * Each branch segment's cost by its first entry's id (lib/usage/branches.ts), for the badges on
 * the nodes that start a branch; empty until the session's usage has loaded.
 */
export const BranchCostContext = createContext<ReadonlyMap<string, BranchCost>>(new Map());

export function useBranchCost(firstEntryId: string): BranchCost | undefined {
  return useContext(BranchCostContext).get(firstEntryId);
}

const noop = () => {};
const fallback: TreeActions = { openMenu: noop, contextAction: noop, unfold: noop, expandTurn: noop, menuFor: null };

export const TreeActionsContext = createContext<TreeActions>(fallback);

export function useTreeActions(): TreeActions {
  return useContext(TreeActionsContext);
}
