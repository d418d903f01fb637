/**
 * The data the HTML export embeds for its inline script, precomputed with the engine so the
 * page only filters, searches, selects and renders (session-engine.md §16.1–16.3).
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - `rows` are the navigator rows of the whole tree in §16.1 order (`flattenTree` with the
 *   stored leaf): `[entryIndex, depth, parentRow, flags, kind, text]`. `entryIndex` indexes
 *   `entries` (file order); `parentRow` indexes `rows` (-1 for roots) and always points
 *   backwards; `text` is the §16.2 row text with the `[label] ` prefix (`displayText`).
 * - `flags` bit i (i < 5) is set when the row is visible under `FILTERS[i]` with an empty
 *   search (hidden-assistant rule with the leaf exemption, then the filter: `isEntryVisible`),
 *   so the page never re-implements the filters. Then ACTIVE (root → leaf), LEAF, FIRST_KEPT.
 * - `search[r]` is the lowercased §16.3 searchable text of row r; the page splits the query
 *   like `parseSearch` and requires every token to be a substring.
 * - `entries` and `header` are embedded unchanged, so the page can render any path from the
 *   parent links and the JSON round-trips.
 */
import { SessionTree } from "@/lib/session/tree/tree";
import {
  displayText,
  emptyText,
  FILTERS,
  filterTag,
  flattenTree,
  isEntryVisible,
  searchableText,
} from "@/lib/session/tree/tree-view";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { FLAG_ACTIVE, FLAG_FIRST_KEPT, FLAG_LEAF } from "./flags";


/** Row kinds, used for colour and the role mark; the words are in the row text itself. */
export type RowKind = "user" | "assistant" | "tool" | "compaction" | "branch" | "custom" | "setting" | "other";

export type ExportRow = [entryIndex: number, depth: number, parentRow: number, flags: number, kind: RowKind, text: string];

export interface ExportInput {
  header: SessionHeader;
  entries: readonly SessionEntry[];
  /** The stored current leaf; null after a reset (no active path). */
  leafId: string | null;
  title: string;
  /** When the export was made; default now. */
  exportedAt?: Date | string;
}

export interface ExportData {
  title: string;
  exportedAt: string;
  leafId: string | null;
  entryCount: number;
  filters: { name: string; tag: string }[];
  /** `emptyText` for this session when no row is visible; `(0/0)` goes with it. */
  emptyText: string;
  rows: ExportRow[];
  search: string[];
  /** Resolved labels (targetId → label) as pairs, for the path view's label tags. */
  labels: [string, string][];
  header: SessionHeader;
  entries: readonly SessionEntry[];
}

const SETTING_TYPES = new Set(["label", "custom", "model_change", "thinking_level_change"]);

export function rowKind(entry: SessionEntry): RowKind {
  if (entry.type === "message") {
    const role = (entry.message as { role?: unknown } | null)?.role;
    if (role === "user") return "user";
    if (role === "assistant") return "assistant";
    if (role === "toolResult" || role === "bashExecution" || role === "pythonExecution") return "tool";
    return "other";
  }
  if (entry.type === "compaction") return "compaction";
  if (entry.type === "branch_summary") return "branch";
  if (entry.type === "custom_message") return "custom";
  return SETTING_TYPES.has(entry.type) ? "setting" : "other";
}

function isoTime(at: Date | string | undefined): string {
  if (at === undefined) return new Date().toISOString();
  return typeof at === "string" ? at : at.toISOString();
}

/** Builds the embedded data: one engine pass (`flattenTree`) plus per-row filter bits. */
export function buildExportData(input: ExportInput): ExportData {
  const { header, entries, leafId } = input;
  const tree = new SessionTree(header, entries);
  const rows = flattenTree(tree.getTree(), { leafId, filter: "all" });
  const indexOf = new Map<SessionEntry, number>();
  entries.forEach((entry, i) => {
    indexOf.set(entry, i);
  });
  const firstKept = new Set<string>();
  for (const entry of entries) {
    if (entry.type === "compaction" && typeof entry.firstKeptEntryId === "string") firstKept.add(entry.firstKeptEntryId);
  }

  const out: ExportRow[] = [];
  const search: string[] = [];
  for (const row of rows) {
    const { entry, label, isLeaf } = row;
    let flags = 0;
    FILTERS.forEach((filter, bit) => {
      if (isEntryVisible(entry, label, { filter, tokens: [], isLeaf })) flags |= 1 << bit;
    });
    if (row.isActive) flags |= FLAG_ACTIVE;
    if (isLeaf) flags |= FLAG_LEAF;
    if (firstKept.has(entry.id)) flags |= FLAG_FIRST_KEPT;
    out.push([indexOf.get(entry) ?? -1, row.depth, row.parentIndex, flags, rowKind(entry), displayText(row.text, label)]);
    search.push(searchableText(entry, label).toLowerCase());
  }

  return {
    title: input.title,
    exportedAt: isoTime(input.exportedAt),
    leafId,
    entryCount: entries.length,
    filters: FILTERS.map((name) => ({ name, tag: filterTag(name) })),
    emptyText: emptyText(entries.length),
    rows: out,
    search,
    labels: [...tree.getLabels()],
    header,
    entries,
  };
}
