/**
 * `prune FILE [--json]`: which tool outputs pruning (session-engine.md §8) would replace on the path from
 * the root to the last entry, computed in memory; the file is not changed. Prints
 * `{ prunedCount, tokensSaved, prunedIndices }` (file indices, in file order).
 */
import { parseArgs } from "@/cli/args";
import { type CliCommand, EXIT_OK, writeJson } from "@/cli/command";
import { fileIndex, pathTo, readSessionFile } from "@/cli/session-file";
import { pruneToolOutputs } from "@/lib/compaction/pruning";

const spec = { positionals: ["FILE"], options: { json: { type: "boolean" } } } as const;

export const pruneCommand: CliCommand = {
  name: "prune",
  summary: "which tool outputs pruning would replace (nothing is written)",
  usage: [
    "prune FILE [--json]",
    "  Prunes the path root → last entry in memory and prints { prunedCount, tokensSaved, prunedIndices }.",
  ],
  run(argv, io) {
    const { positionals, options } = parseArgs(argv, spec);
    const session = readSessionFile(positionals[0]!, io);
    const path = pathTo(session, session.tree.getLeafId());
    const { prunedCount, tokensSaved, pruned } = pruneToolOutputs(path);
    const prunedIndices = pruned.map((p) => fileIndex(session, path, p.index));
    if (options.json) {
      writeJson(io, { prunedCount, tokensSaved, prunedIndices });
      return EXIT_OK;
    }
    const lines = [`prunedCount: ${prunedCount}`, `tokensSaved: ${tokensSaved}`];
    if (prunedIndices.length > 0) lines.push(`prunedIndices: ${prunedIndices.join(", ")}`);
    io.out(`${lines.join("\n")}\n`);
    return EXIT_OK;
  },
};
