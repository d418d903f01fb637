/**
 * `factcheck FILE [--entry COMPACTION_ID] [--json]`: which facts of the span a compaction
 * summarised its summary carried (lib/compaction/fact-check.ts, docs/engine.md "Arbor extensions around compaction"). Default entry: the
 * last compaction on the current branch (the path to the last entry, session-engine.md §1.6). Facts are
 * grouped by kind, each with its source entry id (and file index).
 */
import { parseArgs } from "@/cli/args";
import { CliError, type CliCommand, EXIT_OK, writeJson } from "@/cli/command";
import { pathTo, readSessionFile, type SessionFile } from "@/cli/session-file";
import { factCheckCompaction, scoreText } from "@/lib/compaction/fact-check";

const spec = {
  positionals: ["FILE"],
  options: { entry: { type: "string" }, json: { type: "boolean" } },
} as const;

function pickCompaction(session: SessionFile, entry: string | undefined): string {
  if (entry !== undefined) {
    const index = session.indexOf.get(entry);
    if (index === undefined) throw new CliError(`${session.file}: no entry with id "${entry}" (--entry)`);
    const type = session.entries[index]?.type;
    if (type !== "compaction") throw new CliError(`${session.file}: entry ${entry} (index ${index}) is a ${type} entry, not a compaction (--entry)`);
    return entry;
  }
  const path = pathTo(session, session.tree.getLeafId());
  const last = path.findLast((e) => e.type === "compaction");
  if (!last) throw new CliError(`${session.file}: no compaction on the current branch; pass --entry COMPACTION_ID`);
  return last.id;
}

export const factcheckCommand: CliCommand = {
  name: "factcheck",
  summary: "which facts of the summarised span a compaction's summary carried",
  usage: [
    "factcheck FILE [--entry COMPACTION_ID] [--json]",
    "  Default: the last compaction on the current branch. Prints the score (\"38 of 45 facts carried\"),",
    "  then each kind (files, errors, instructions, identifiers, URLs, numbers, TODO lines) with every",
    "  fact marked carried (+) or dropped (-) and the id of the entry it came from.",
  ],
  run(argv, io) {
    const { positionals, options } = parseArgs(argv, spec);
    const session = readSessionFile(positionals[0]!, io);
    const id = pickCompaction(session, options.entry);
    const check = factCheckCompaction(session.tree.getBranch(id), id, { cwd: session.header.cwd });
    if (!check) throw new Error(`compaction ${id} is not on its own path`);
    if (options.json) {
      writeJson(io, { ...check, score: scoreText(check) });
      return EXIT_OK;
    }
    const lines = [
      `compaction ${id} (index ${session.indexOf.get(id)}): ${check.spanEntries} entries summarised, first kept ${check.firstKeptEntryId}`,
      scoreText(check),
    ];
    for (const k of check.byKind) {
      lines.push("", `${k.label}: ${k.carried} of ${k.total}`);
      for (const f of check.facts.filter((x) => x.kind === k.kind)) {
        const extra = [f.detail, f.inFileTagsOnly ? "file tags only" : undefined].filter(Boolean).join(", ");
        lines.push(`  ${f.carried ? "+" : "-"} ${f.text}${extra ? ` (${extra})` : ""}  ← ${f.entryId} (index ${session.indexOf.get(f.entryId)})`);
      }
    }
    io.out(`${lines.join("\n")}\n`);
    return EXIT_OK;
  },
};
