/**
 * §16.3 search over full entries, for the server's search route and for callers that hold the
 * entries (tests, the CLI). Pure: no network, disk or database access.
 *
 * The searchable text is the label plus the entry's own text (tree-row-text `searchableText`).
 * The entry part depends on the entry alone, so a server memoises its lowercased form per entry
 * (`memoPerEntry`); the label is matched separately: a token has no whitespace and the two parts
 * are joined by a space, so "every token is a substring of label + ' ' + body" is the same as
 * "every token is a substring of the label or of the body".
 */
import { parseSearch } from "@/lib/session/tree/tree-filter";
import { searchableText } from "@/lib/session/tree/tree-row-text";
import type { SessionEntry } from "@/lib/session/types";

/** The lowercased searchable text of an entry without its label. */
export function entrySearchText(entry: SessionEntry): string {
  return searchableText(entry, undefined).toLowerCase();
}

export interface SearchInput {
  entries: readonly SessionEntry[];
  labels: ReadonlyMap<string, string>;
  query: string;
  /** entrySearchText, or a memoised copy of it. */
  textOf?: (entry: SessionEntry) => string;
}

/** Ids of the entries matching the query, in file order; null when the query has no tokens. */
export function matchingIds(input: SearchInput): string[] | null {
  const tokens = parseSearch(input.query);
  if (tokens.length === 0) return null;
  const textOf = input.textOf ?? entrySearchText;
  const out: string[] = [];
  for (const e of input.entries) {
    const body = textOf(e);
    const label = input.labels.get(e.id)?.toLowerCase();
    if (tokens.every((t) => body.includes(t) || label?.includes(t) === true)) out.push(e.id);
  }
  return out;
}
