"use client";
/**
 * What node components may ask of the canvas, without new props on every node (which
 * would defeat `memo`): open the entry menu, run a menu action, unfold a run, expand a turn.
 * The canvas provides one stable value; only `menuFor` changes (when a menu opens).
 */
import { createContext, useContext } from "react";
import type { TreeModel } from "@/components/tree/use-tree-model";
import { type CommonData, type ContextAction, entryIdOf, isTurnId, type TreeNode } from "@/components/tree/types";

/** What the entry menu offers beyond the common items (issue #16). */
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
  /** A collapsed overview turn (`turn:<first entry id>`): the turn's items. */
  turn?: boolean;
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
  if (node.type === "turn") return { id: node.id, turn: true, canEditResend: node.data.startsWithUser };
  return { id: node.id, canEditResend: node.type === "entry" && node.data.isUserMessage, ...menuFacts(node.type, node.data) };
}

/**
 * The entry "Continue from here" starts from for a node id: the entry itself, a fold's first entry,
 * and a collapsed turn's LAST entry ("Continue after this turn").
 */
export function continueTarget(model: TreeModel, id: string): string {
  if (!isTurnId(id)) return entryIdOf(id);
  const node = model.layout.nodes[model.layout.index.get(id) ?? -1];
  return node?.type === "turn" ? (node.data.entryIds.at(-1) ?? entryIdOf(id)) : entryIdOf(id);
}

const noop = () => {};
const fallback: TreeActions = { openMenu: noop, contextAction: noop, unfold: noop, expandTurn: noop, menuFor: null };

export const TreeActionsContext = createContext<TreeActions>(fallback);

export function useTreeActions(): TreeActions {
  return useContext(TreeActionsContext);
}
