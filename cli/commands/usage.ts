/**
 * `usage daily|monthly|session|branch [PATH…] [--since D] [--until D] [--model M] [--project P] [--json]`:
 * tokens and money by day, month, session or a session's branches (docs/usage.md; branch: usage-branch.ts). Given files or folders it reads
 * them straight (usage-files.ts); without, the database's usage ledger (counted rows, each with
 * the price stored when it was written). `--json` prints ccusage's shape for the same command.
 */
import { parseNodeArgs } from "@/cli/args";
import { type CliCommand, type CliIo, EXIT_OK, UsageError, writeJson } from "@/cli/command";
import { expandImportPaths } from "@/cli/commands/import-paths";
import { formatMicros } from "@/lib/usage/prices";
import { buildReport, ccusageJson, type LedgerRow, localDay, type Period } from "@/lib/usage/report";
import { type DbRuntime, processDbRuntime, withDatabase } from "./db-runtime";
import { type BranchInput, branchReport, printBranchReports } from "./usage-branch";
import { rowsOfFiles, sessionRowsOfFiles } from "./usage-files";

const PERIODS: readonly Period[] = ["daily", "monthly", "session"];

/** `YYYY-MM-DD` or ccusage's `YYYYMMDD`. */
function day(option: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  if (!m) throw new UsageError(`--${option} expects a date as YYYY-MM-DD or YYYYMMDD, got "${value}"`);
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function keep(rows: LedgerRow[], o: { since?: string; until?: string; model?: string; project?: string }): LedgerRow[] {
  return rows.filter((r) => {
    const d = localDay(r.at);
    if (o.since && d < o.since) return false;
    if (o.until && d > o.until) return false;
    if (o.model && !r.model.includes(o.model)) return false;
    if (o.project && !(r.project ?? "").includes(o.project)) return false;
    return true;
  });
}

const grouped = (n: number) => n.toLocaleString("en-US");

type Filters = Parameters<typeof keep>[1];

/** Each session's rows with its tree and leaf, from the files given or the database. */
async function branchInputs(paths: string[], filters: Filters, runtime: DbRuntime, io: CliIo): Promise<BranchInput[]> {
  if (paths.length > 0) {
    return (await sessionRowsOfFiles(await expandImportPaths(paths), io)).map(({ session, sessionId, rows }) => ({
      sessionId,
      ...(typeof session.header.cwd === "string" && session.header.cwd ? { project: session.header.cwd } : {}),
      nodes: session.entries,
      leafId: session.entries.at(-1)?.id ?? null,
      rows: keep(rows, filters),
    }));
  }
  return withDatabase(runtime, async () => {
    const { getSessionMeta, loadEntries, readLedger } = await import("@/lib/db");
    const bySession = new Map<string, LedgerRow[]>();
    for (const row of keep(await readLedger(), filters)) bySession.set(row.sessionId, [...(bySession.get(row.sessionId) ?? []), row]);
    const out: BranchInput[] = [];
    for (const [sessionId, rows] of bySession) {
      const meta = await getSessionMeta({ id: sessionId });
      const entries = await loadEntries({ sessionId });
      out.push({ sessionId, ...(meta.cwd ? { project: meta.cwd } : {}), nodes: entries, leafId: meta.leafId, rows });
    }
    return out;
  });
}

/** The ledger's counted rows (lib/db loaded lazily, like import's). */
async function rowsOfDatabase(runtime: DbRuntime): Promise<LedgerRow[]> {
  return withDatabase(runtime, async () => {
    const { readLedger } = await import("@/lib/db");
    return readLedger();
  });
}

export function makeUsageCommand(runtime: DbRuntime = processDbRuntime): CliCommand {
  return {
    name: "usage",
    summary: "tokens and money by day, month or session (ccusage's --json shape)",
    usage: [
      "usage daily|monthly|session|branch [PATH…] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--model TEXT] [--project TEXT] [--json]",
      "  Reads the session files or folders given (any format; nothing is imported), else the database's ledger.",
      "  branch: each session's branches, their calls, tokens and cost, the abandoned ones called out.",
      "  Days are local (TZ).",
      "usage rebuild",
      "  Fills the database's ledger for sessions stored before it existed (once, after upgrading).",
      "  --json prints ccusage's shape: { daily|monthly|sessions: [...], totals }.",
    ],
    async run(argv, io) {
      const { positionals, values } = parseNodeArgs(argv, {
        since: { type: "string" },
        until: { type: "string" },
        model: { type: "string" },
        project: { type: "string" },
        json: { type: "boolean" },
      });
      const [period, ...paths] = positionals;
      if (period === "rebuild") {
        const filled = await withDatabase(runtime, async () => (await import("@/lib/db")).backfillLedger());
        io.out(`usage ledger: filled ${filled} session${filled === 1 ? "" : "s"} stored before it existed\n`);
        return EXIT_OK;
      }
      if (!period || !(PERIODS.includes(period as Period) || period === "branch")) {
        throw new UsageError(`the first argument must be one of ${[...PERIODS, "branch", "rebuild"].join(", ")}`);
      }
      const filters = {
        since: day("since", values.since),
        until: day("until", values.until),
        model: values.model,
        project: values.project,
      };
      if (period === "branch") {
        const inputs = await branchInputs(paths, filters, runtime, io);
        printBranchReports(io, inputs.filter((i) => i.rows.length > 0).map(branchReport), values.json === true);
        return EXIT_OK;
      }
      const all = paths.length > 0 ? await rowsOfFiles(await expandImportPaths(paths), io) : await rowsOfDatabase(runtime);
      const rows = keep(all, filters);
      const report = buildReport(rows, period as Period);
      if (values.json) {
        writeJson(io, ccusageJson(report, period as Period));
        return EXIT_OK;
      }
      const lines = report.groups.map(
        (g) =>
          `${g.key}  in ${grouped(g.inputTokens)}  out ${grouped(g.outputTokens)}  cache w ${grouped(g.cacheCreationTokens)}  cache r ${grouped(g.cacheReadTokens)}  ${formatMicros(Math.round(g.totalCost * 1_000_000))}${g.unpricedTokens ? `  (${grouped(g.unpricedTokens)} tokens price unknown)` : ""}  ${g.modelsUsed.join(", ")}`,
      );
      const t = report.totals;
      lines.push(`total  ${grouped(t.totalTokens)} tokens  ${formatMicros(Math.round(t.totalCost * 1_000_000))}`);
      io.out(`${lines.join("\n")}\n`);
      return EXIT_OK;
    },
  };
}

export const usageCommand = makeUsageCommand();
