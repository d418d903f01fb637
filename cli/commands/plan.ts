/**
 * `plan FILE [--leaf ID] [--keep-recent-tokens N] [--reserve-tokens N] [--prune] [--json]`:
 * what a compaction of the branch would do (prepareCompaction, session-engine.md §5.4), without any model
 * call. `--prune` first prunes tool outputs on the path in memory, as auto-compaction does
 * (session-engine.md §8, §13). Indices are file indices; counts are message counts.
 */
import { parseArgs } from "@/cli/args";
import { type CliCommand, EXIT_OK, writeJson } from "@/cli/command";
import { fileIndex, pathTo, readSessionFile, resolveLeaf } from "@/cli/session-file";
import { computeFileLists } from "@/lib/compaction/file-ops";
import { nothingToCompactReason, prepareCompaction } from "@/lib/compaction/prepare";
import { pruneToolOutputs } from "@/lib/compaction/pruning";
import { pinnedIds } from "@/lib/session/pins";
import { DEFAULT_COMPACTION_SETTINGS } from "@/lib/settings/schema";

const spec = {
  positionals: ["FILE"],
  options: {
    leaf: { type: "string" },
    "keep-recent-tokens": { type: "int" },
    "reserve-tokens": { type: "int" },
    prune: { type: "boolean" },
    json: { type: "boolean" },
  },
} as const;

export const planCommand: CliCommand = {
  name: "plan",
  summary: "what a compaction of the branch would summarize and keep (prepareCompaction)",
  usage: [
    "plan FILE [--leaf ID] [--keep-recent-tokens N] [--reserve-tokens N] [--prune] [--json]",
    "  Prints { firstKeptEntryId, firstKeptEntryIndex, turnStartIndex, isSplitTurn, keepRecentTokens,",
    "  tokensBefore, messagesToSummarize, turnPrefixMessages, recentMessages, readFiles, modifiedFiles,",
    "  hasPreviousSummary }, or { plan: null, reason } when there is nothing to compact.",
    `  Defaults: --keep-recent-tokens ${DEFAULT_COMPACTION_SETTINGS.keepRecentTokens}, --reserve-tokens ${DEFAULT_COMPACTION_SETTINGS.reserveTokens}.`,
    "  --prune prunes old tool outputs on the path first (in memory), as auto-compaction does.",
  ],
  run(argv, io) {
    const { positionals, options } = parseArgs(argv, spec);
    const session = readSessionFile(positionals[0]!, io);
    const path = pathTo(session, resolveLeaf(session, options.leaf));
    const pruned = options.prune ? pruneToolOutputs(path) : undefined;
    const settings = {
      ...DEFAULT_COMPACTION_SETTINGS,
      keepRecentTokens: options["keep-recent-tokens"] ?? DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
      reserveTokens: options["reserve-tokens"] ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens,
    };
    const prep = prepareCompaction(path, settings, { pinnedIds: pinnedIds(session.entries) });
    const prunedLine = pruned ? `pruned: ${pruned.prunedCount} tool results, ${pruned.tokensSaved} tokens saved` : "";
    if (!prep) {
      const result = { plan: null, reason: nothingToCompactReason(path) };
      if (options.json) writeJson(io, result);
      else io.out(`${[prunedLine, `nothing to compact: ${result.reason}`].filter(Boolean).join("\n")}\n`);
      return EXIT_OK;
    }
    const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
    const result = {
      firstKeptEntryId: prep.firstKeptEntryId,
      firstKeptEntryIndex: fileIndex(session, path, prep.firstKeptEntryIndex),
      turnStartIndex: fileIndex(session, path, prep.turnStartIndex),
      isSplitTurn: prep.isSplitTurn,
      keepRecentTokens: prep.keepRecentTokens,
      tokensBefore: prep.tokensBefore,
      messagesToSummarize: prep.messagesToSummarize.length,
      turnPrefixMessages: prep.turnPrefixMessages.length,
      recentMessages: prep.recentMessages.length,
      readFiles,
      modifiedFiles,
      hasPreviousSummary: prep.previousSummary !== undefined,
    };
    if (options.json) {
      writeJson(io, result);
      return EXIT_OK;
    }
    const lines = [
      prunedLine,
      `path: ${path.length} entries`,
      `firstKeptEntry: index ${result.firstKeptEntryIndex}, id ${result.firstKeptEntryId}`,
      `turnStartIndex: ${result.turnStartIndex}`,
      `isSplitTurn: ${result.isSplitTurn}`,
      `keepRecentTokens: ${result.keepRecentTokens} (setting ${settings.keepRecentTokens})`,
      `tokensBefore: ${result.tokensBefore}`,
      `messages: ${result.messagesToSummarize} to summarize, ${result.turnPrefixMessages} turn prefix, ${result.recentMessages} kept`,
      `hasPreviousSummary: ${result.hasPreviousSummary}`,
      `readFiles (${readFiles.length}):${readFiles.map((f) => `\n  ${f}`).join("")}`,
      `modifiedFiles (${modifiedFiles.length}):${modifiedFiles.map((f) => `\n  ${f}`).join("")}`,
    ];
    io.out(`${lines.filter(Boolean).join("\n")}\n`);
    return EXIT_OK;
  },
};
