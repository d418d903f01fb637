/**
 * `plan FILE [--leaf ID] [--keep-recent-tokens N] [--reserve-tokens N] [--prune] [--json]`:
 * what a compaction of the branch would do (prepareCompaction, spec §5.4), without any model
 * call. `--prune` first prunes tool outputs on the path in memory, as auto-compaction does
 * (spec §8, §13). Indices are file indices; counts are message counts.
 */
import { parseArgs } from "@/cli/args";
import { type CliCommand, EXIT_OK, writeJson } from "@/cli/command";
import { fileIndex, pathTo, readSessionFile, resolveLeaf } from "@/cli/session-file";
import { findCutPoint } from "@/lib/compaction/cut-point";
import { computeFileLists } from "@/lib/compaction/file-ops";
import { compactionMessageOf, nothingToCompactReason, prepareCompaction } from "@/lib/compaction/prepare";
import { pruneToolOutputs } from "@/lib/compaction/pruning";
import { calculatePromptTokens, estimateTokens, getLastAssistantUsage } from "@/lib/compaction/tokens";
import type { SessionEntry } from "@/lib/session/types";
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

/**
 * keepRecentTokens after the ratio rule of spec §5.4 step 5. prepareCompaction applies it
 * internally but does not return it, so it is recomputed here with the same exported pieces
 * (TODO: use a helper exported from lib/compaction/prepare.ts once there is one).
 */
export function adjustedKeepRecentTokens(path: SessionEntry[], keepRecentTokens: number): number {
  const lastUsage = getLastAssistantUsage(path);
  if (!lastUsage) return keepRecentTokens;
  let prev = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]?.type === "compaction") {
      prev = i;
      break;
    }
  }
  let estimated = 0;
  for (let i = prev + 1; i < path.length; i++) {
    const message = compactionMessageOf(path[i]!);
    if (message) estimated += estimateTokens(message);
  }
  const ratio = estimated > 0 ? calculatePromptTokens(lastUsage) / estimated : 0;
  return Number.isFinite(ratio) && ratio > 1 ? Math.max(1, Math.floor(keepRecentTokens / ratio)) : keepRecentTokens;
}

function lastCompactionIndex(path: SessionEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]?.type === "compaction") return i;
  return -1;
}

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
    const prep = prepareCompaction(path, settings);
    const prunedLine = pruned ? `pruned: ${pruned.prunedCount} tool results, ${pruned.tokensSaved} tokens saved` : "";
    if (!prep) {
      const result = { plan: null, reason: nothingToCompactReason(path) };
      if (options.json) writeJson(io, result);
      else io.out(`${[prunedLine, `nothing to compact: ${result.reason}`].filter(Boolean).join("\n")}\n`);
      return EXIT_OK;
    }
    // Recompute the cut prepareCompaction made, to report path positions as file indices.
    const keepRecentTokens = adjustedKeepRecentTokens(path, settings.keepRecentTokens);
    const cut = findCutPoint(path, lastCompactionIndex(path) + 1, path.length, keepRecentTokens);
    if (path[cut.firstKeptEntryIndex]?.id !== prep.firstKeptEntryId) {
      throw new Error("internal: recomputed cut point disagrees with prepareCompaction");
    }
    const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
    const result = {
      firstKeptEntryId: prep.firstKeptEntryId,
      firstKeptEntryIndex: fileIndex(session, path, cut.firstKeptEntryIndex),
      turnStartIndex: fileIndex(session, path, cut.turnStartIndex),
      isSplitTurn: prep.isSplitTurn,
      keepRecentTokens,
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
      `keepRecentTokens: ${keepRecentTokens} (setting ${settings.keepRecentTokens})`,
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
