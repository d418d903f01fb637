/**
 * Visibility rules of the tree navigator: hidden assistants, the five filters, search and the
 * footer (session-engine.md §16.3). Pure: no network, disk or database access.
 */
import { hasNonWhitespaceText, searchableText } from "@/lib/session/tree/tree-row-text";
import type { SessionEntry } from "@/lib/session/types";

/** The filters in cycling order (§16.3). */
export const FILTERS = ["default", "no-tools", "user-only", "labeled-only", "all"] as const;
export type TreeFilter = (typeof FILTERS)[number];

export const NO_ENTRIES_FOUND = "No entries found";
export const NO_ENTRIES_IN_SESSION = "No entries in session";

export function isTreeFilter(value: unknown): value is TreeFilter {
  return typeof value === "string" && (FILTERS as readonly string[]).includes(value);
}

/** The next filter forward (`dir = 1`, Ctrl+O) or back (`dir = -1`, Shift+Ctrl+O), wrapping. */
export function nextFilter(filter: TreeFilter, dir: 1 | -1 = 1): TreeFilter {
  const i = FILTERS.indexOf(filter);
  const n = FILTERS.length;
  return FILTERS[(((i + dir) % n) + n) % n] ?? "default";
}

const TAGS: Record<TreeFilter, string> = {
  default: "",
  "no-tools": " [no-tools]",
  "user-only": " [user]",
  "labeled-only": " [labeled]",
  all: " [all]",
};

/** The footer tag of a filter, with its leading space; empty for `default` (§16.3). */
export function filterTag(filter: TreeFilter): string {
  return TAGS[filter];
}

/**
 * Footer text `(i/N)` + filter tag (§16.3). `selectedIndex` is the 0-based position of the
 * selection among the visible rows and is shown 1-based; with no visible rows it is `(0/0)`.
 */
export function formatFooter(selectedIndex: number, total: number, filter: TreeFilter): string {
  const position = total > 0 ? `(${Math.min(Math.max(selectedIndex, 0), total - 1) + 1}/${total})` : "(0/0)";
  return position + filterTag(filter);
}

/** What to show instead of rows when none is visible (§16.3 "Empty results"). */
export function emptyText(totalEntries: number): string {
  return totalEntries === 0 ? NO_ENTRIES_IN_SESSION : NO_ENTRIES_FOUND;
}

function messageRole(entry: SessionEntry): string | undefined {
  if (entry.type !== "message") return undefined;
  const msg = entry.message as unknown;
  return typeof msg === "object" && msg !== null ? String((msg as { role?: unknown }).role) : undefined;
}

/**
 * §16.3 "Hidden assistants": an assistant message with no non-whitespace text whose
 * stopReason is `stop` or `toolUse` (or missing) is hidden, because it only carries tool
 * calls the toolResult rows already describe. Errors, aborts and `length` stay visible.
 * The caller exempts the current leaf.
 */
export function isHiddenAssistant(entry: SessionEntry): boolean {
  if (messageRole(entry) !== "assistant") return false;
  const msg = entry.message as { content?: unknown; stopReason?: unknown };
  if (hasNonWhitespaceText(msg.content)) return false;
  const stop = msg.stopReason;
  return stop === undefined || stop === "stop" || stop === "toolUse";
}

const SETTINGS_TYPES = new Set(["label", "custom", "model_change", "thinking_level_change"]);

/** Whether the filter alone lets the entry through (§16.3 "Filters"). */
export function passesFilter(entry: SessionEntry, label: string | undefined, filter: TreeFilter): boolean {
  return passesFilterBy(entry.type, messageRole(entry), label, filter);
}

/** passesFilter from the entry's type and message role alone (skeleton rows carry both). */
export function passesFilterBy(type: string, role: string | undefined, label: string | undefined, filter: TreeFilter): boolean {
  switch (filter) {
    case "default":
      return !SETTINGS_TYPES.has(type);
    case "no-tools":
      return !SETTINGS_TYPES.has(type) && role !== "toolResult";
    case "user-only":
      return role === "user";
    case "labeled-only":
      return label !== undefined && label !== "";
    case "all":
      return true;
  }
}

/** §16.3 "Search": the query lowercased and split on whitespace; empty tokens dropped. */
export function parseSearch(query: string | undefined): string[] {
  if (!query) return [];
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Every token must be a substring of the lowercased searchable text (§16.3). */
export function matchesSearch(entry: SessionEntry, label: string | undefined, tokens: readonly string[]): boolean {
  if (tokens.length === 0) return true;
  const haystack = searchableText(entry, label).toLowerCase();
  return tokens.every((t) => haystack.includes(t));
}

export interface VisibilityOptions {
  filter: TreeFilter;
  /** Pre-parsed search tokens (see parseSearch). */
  tokens: readonly string[];
  /** The current leaf is never hidden by the hidden-assistant rule. */
  isLeaf: boolean;
}

/**
 * Whether a row is shown: hidden-assistant rule (leaf exempt), then the filter, then search.
 * The leaf exemption covers only the hidden-assistant rule; a filter or search can still hide
 * the leaf, which is why initial selection falls back to its nearest visible ancestor (§16.3).
 */
export function isEntryVisible(entry: SessionEntry, label: string | undefined, opts: VisibilityOptions): boolean {
  if (!opts.isLeaf && isHiddenAssistant(entry)) return false;
  if (!passesFilter(entry, label, opts.filter)) return false;
  return matchesSearch(entry, label, opts.tokens);
}
