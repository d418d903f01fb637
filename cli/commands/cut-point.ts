/**
 * `cut-point FILE --keep-recent-tokens N [--json]`: runs findCutPoint (session-engine.md §5.3) over ALL
 * entries of the file, `[0, entries.length)`, in file order — not just the current branch —
 * and prints `{ firstKeptEntryIndex, turnStartIndex, isSplitTurn }` (file indices).
 */
import { parseArgs } from "@/cli/args";
import { type CliCommand, EXIT_OK, writeJson } from "@/cli/command";
import { describeEntry, readSessionFile } from "@/cli/session-file";
import { findCutPoint } from "@/lib/compaction/cut-point";

const spec = {
  positionals: ["FILE"],
  options: { "keep-recent-tokens": { type: "int", required: true }, json: { type: "boolean" } },
} as const;

export const cutPointCommand: CliCommand = {
  name: "cut-point",
  summary: "where findCutPoint cuts the whole file for a token budget",
  usage: [
    "cut-point FILE --keep-recent-tokens N [--json]",
    "  Runs findCutPoint over all entries (0 … entries.length) and prints",
    "  { firstKeptEntryIndex, turnStartIndex, isSplitTurn }.",
  ],
  run(argv, io) {
    const { positionals, options } = parseArgs(argv, spec);
    const session = readSessionFile(positionals[0]!, io);
    const { entries } = session;
    const cut = findCutPoint(entries, 0, entries.length, options["keep-recent-tokens"]!);
    const result = {
      firstKeptEntryIndex: cut.firstKeptEntryIndex,
      turnStartIndex: cut.turnStartIndex,
      isSplitTurn: cut.isSplitTurn,
    };
    if (options.json) {
      writeJson(io, result);
      return EXIT_OK;
    }
    const at = (i: number) => (i < 0 ? "-1" : `${i} (${describeEntry(entries[i])})`);
    io.out(
      [
        `entries: ${entries.length}`,
        `firstKeptEntryIndex: ${at(result.firstKeptEntryIndex)}`,
        `turnStartIndex: ${at(result.turnStartIndex)}`,
        `isSplitTurn: ${result.isSplitTurn}`,
        "",
      ].join("\n"),
    );
    return EXIT_OK;
  },
};
