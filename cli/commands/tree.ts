/**
 * `tree FILE [--filter F] [--search Q] [--leaf ID] [--json]`: the session tree as text with the
 * navigator's rules (session-engine.md §16): one row per visible entry, in navigator order, indented per
 * §16.1, with the §16.2 row text and a `[label] ` prefix. The marker column shows `*` on the
 * path root → leaf and `@` on the leaf itself; the footer is the navigator's `(i/N)` + tag with
 * the initial selection (the leaf or its nearest visible ancestor).
 */
import { parseArgs } from "@/cli/args";
import { type CliCommand, EXIT_OK, writeJson } from "@/cli/command";
import { readSessionFile, resolveLeaf } from "@/cli/session-file";
import {
  displayText,
  emptyText,
  FILTERS,
  flattenTree,
  formatFooter,
  initialSelection,
  isTreeFilter,
  type TreeRow,
  visibleIndexOf,
  visibleRows,
} from "@/lib/session/tree/tree-view";

const spec = {
  positionals: ["FILE"],
  options: {
    filter: { type: "string", choices: FILTERS },
    search: { type: "string" },
    leaf: { type: "string" },
    json: { type: "boolean" },
  },
} as const;

const INDENT = "  ";

export function formatTreeRow(row: TreeRow): string {
  const marker = row.isLeaf ? "@" : row.isActive ? "*" : " ";
  return `${marker} ${row.entry.id.padEnd(8)} ${INDENT.repeat(row.depth)}${displayText(row.text, row.label)}`;
}

export const treeCommand: CliCommand = {
  name: "tree",
  summary: "the session tree as the navigator shows it (filters, labels, active path)",
  usage: [
    `tree FILE [--filter ${FILTERS.join("|")}] [--search QUERY] [--leaf ID] [--json]`,
    "  One row per visible entry: marker (* active path, @ leaf), id, indented row text.",
  ],
  run(argv, io) {
    const { positionals, options } = parseArgs(argv, spec);
    const session = readSessionFile(positionals[0]!, io);
    const leafId = resolveLeaf(session, options.leaf);
    const filter = isTreeFilter(options.filter) ? options.filter : "default";
    const rows = flattenTree(session.tree.getTree(), { leafId, filter, search: options.search });
    const shown = visibleRows(rows);
    const selected = initialSelection(rows, leafId);
    const footer = formatFooter(visibleIndexOf(rows, selected), shown.length, filter);
    if (options.json) {
      writeJson(io, {
        filter,
        leafId,
        selectedId: selected,
        footer,
        rows: shown.map((r) => ({
          index: session.indexOf.get(r.entry.id),
          id: r.entry.id,
          parentId: r.entry.parentId,
          depth: r.depth,
          text: r.text,
          ...(r.label !== undefined ? { label: r.label } : {}),
          isActive: r.isActive,
          isLeaf: r.isLeaf,
        })),
      });
      return EXIT_OK;
    }
    const body = shown.length > 0 ? shown.map(formatTreeRow) : [emptyText(session.entries.length)];
    io.out(`${[...body, footer].join("\n")}\n`);
    return EXIT_OK;
  },
};
