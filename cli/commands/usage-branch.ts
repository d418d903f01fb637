/**
 * `usage branch [PATH…]`: what each branch of each session cost (docs/usage.md "Branches"): one
 * line per branch segment with its calls, tokens and cost, the branches off the current path
 * (root → the session's leaf) called out as abandoned, and their sum per session. On files the
 * leaf is the file's last entry; on the database it is the session's stored leaf. Rows are those
 * of the other reports (a response held by several sessions counts in one, docs/usage.md).
 */
import { type CliIo, writeJson } from "@/cli/command";
import { formatMicros, priceRow } from "@/lib/usage/prices";
import { type SessionBranch, sessionBranches, type TreeNode } from "@/lib/usage/branches";
import type { LedgerRow } from "@/lib/usage/report";
import { totalTokens } from "@/lib/usage/rows";

export interface BranchInput {
  sessionId: string;
  project?: string;
  nodes: readonly TreeNode[];
  leafId: string | null;
  rows: readonly LedgerRow[];
}

export interface SessionBranchReport {
  sessionId: string;
  project?: string;
  totalCost: number;
  totalTokens: number;
  unpricedTokens: number;
  abandoned: { branches: number; cost: number; tokens: number };
  branches: (Omit<SessionBranch, "costMicros"> & { cost: number })[];
}

const dollars = (micros: number) => micros / 1_000_000;

export function branchReport(input: BranchInput): SessionBranchReport {
  let unpriced = 0;
  const costed = input.rows.map((r) => {
    const cost = priceRow(r).costMicros;
    if (cost === undefined) unpriced += totalTokens(r);
    return { entryId: r.entryId, tokens: totalTokens(r), ...(cost !== undefined ? { costMicros: cost } : {}) };
  });
  const branches = sessionBranches(input.nodes, costed, input.leafId);
  const off = branches.filter((b) => !b.onCurrentPath);
  const sum = (list: SessionBranch[], f: (b: SessionBranch) => number) => list.reduce((s, b) => s + f(b), 0);
  return {
    sessionId: input.sessionId,
    ...(input.project ? { project: input.project } : {}),
    totalCost: dollars(sum(branches, (b) => b.costMicros)),
    totalTokens: sum(branches, (b) => b.tokens),
    unpricedTokens: unpriced,
    abandoned: { branches: off.length, cost: dollars(sum(off, (b) => b.costMicros)), tokens: sum(off, (b) => b.tokens) },
    branches: branches.map(({ costMicros, ...b }) => ({ ...b, cost: dollars(costMicros) })),
  };
}

const grouped = (n: number) => n.toLocaleString("en-US");
const money = (dollarsValue: number) => formatMicros(Math.round(dollarsValue * 1_000_000));

/** Prints the reports: text, or `{ sessions: [...] }` with `--json`. */
export function printBranchReports(io: CliIo, reports: readonly SessionBranchReport[], json: boolean): void {
  if (json) {
    writeJson(io, { sessions: reports });
    return;
  }
  const lines: string[] = [];
  for (const r of reports) {
    const abandoned = r.abandoned.branches
      ? `; abandoned: ${r.abandoned.branches} branch${r.abandoned.branches === 1 ? "" : "es"}, ${grouped(r.abandoned.tokens)} tokens, ${money(r.abandoned.cost)}`
      : "";
    lines.push(`${r.sessionId}${r.project ? `  ${r.project}` : ""}  ${grouped(r.totalTokens)} tokens  ${money(r.totalCost)}${abandoned}`);
    for (const b of r.branches) {
      const from = b.forkedFrom ? `from ${b.forkedFrom}` : "root";
      lines.push(`  ${b.onCurrentPath ? "current  " : "ABANDONED"}  ${b.startId} (${from})  ${b.calls} calls  ${grouped(b.tokens)} tokens  ${money(b.cost)}`);
    }
  }
  io.out(lines.length ? `${lines.join("\n")}\n` : "no model calls\n");
}
