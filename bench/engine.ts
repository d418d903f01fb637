/**
 * Engine benchmark: per-entry cost of buildSessionContext, prepareCompaction and
 * pruneToolOutputs at 1k, 10k and 100k entries, against the floor of JSON.parse-ing the same
 * entries (what any load of the session costs at least), and the growth of each per-entry cost
 * from 1k to 100k (≈ 1 means linear).
 *
 * - buildSessionContext(entries): the whole session in file order, index included, leaf = last.
 * - prepareCompaction(path) / pruneToolOutputs(path): on the root → leaf branch, as the agent
 *   calls them. Pruning mutates its input; each call is undone (untimed) before the next.
 * Each sample lasts ≥ 40 ms (small sizes loop over copies, see DATA_ENTRIES); 9 rounds, each
 * over every size and operation in turn, so noise from other processes spreads over all sizes;
 * the figure is the median.
 */
import { prepareCompaction } from "@/lib/compaction/prepare";
import { type PruneResult, pruneToolOutputs, restorePrunedToolOutputs } from "@/lib/compaction/pruning";
import { pathToRoot } from "@/lib/session/tree/branch-path";
import { buildSessionContext } from "@/lib/session/context";
import type { SessionEntry } from "@/lib/session/types";
import { DEFAULT_COMPACTION_SETTINGS } from "@/lib/settings";
import { type BenchSession, label } from "./lib/sessions";
import { addRow, calibrate, formatNs, median, sampleSync } from "./lib/stats";

const parseAll = (lines: readonly string[]) => lines.map((l) => JSON.parse(l) as SessionEntry);

type Op = "parse" | "index" | "context" | "prepare" | "prune";
const OPS: readonly Op[] = ["parse", "index", "context", "prepare", "prune"];
const ROUNDS = 9;
/** Tool results pruneToolOutputs replaces, by session size (the work differs: see docs). */
const prunedCount = new Map<number, number>();

interface Subject {
  s: BenchSession;
  path: SessionEntry[];
  calls: Record<Op, { fn: () => unknown; teardown?: () => void; inner: number }>;
  runs: Record<Op, number[]>;
}

/**
 * Every size is measured over the same amount of data: `DATA_ENTRIES / n` independent copies of
 * the session (own strings, own objects), and successive calls cycle through them. Otherwise a
 * 1k session, called in a loop, would sit in the CPU caches while a 100k one never does, and the
 * per-entry growth would measure the memory hierarchy instead of the algorithm.
 */
const DATA_ENTRIES = 100_000;

function subject(s: BenchSession): Subject {
  const copies = Array.from({ length: Math.max(1, Math.round(DATA_ENTRIES / s.n)) }, () => {
    const lines = s.lines.map((l) => JSON.stringify(JSON.parse(l)));
    const entries = parseAll(lines);
    const path = pathToRoot(entries.at(-1)!, new Map(entries.map((e) => [e.id, e] as const)));
    return { lines, entries, path };
  });
  let k = 0;
  const next = () => copies[k++ % copies.length]!;
  let pruned: { path: SessionEntry[]; result: PruneResult } | undefined;
  const fns: Record<Op, { fn: () => unknown; teardown?: () => void }> = {
    parse: { fn: () => parseAll(next().lines) },
    // Reference: only the id → entry Map that buildSessionContext builds first.
    index: { fn: () => new Map(next().entries.map((e) => [e.id, e] as const)) },
    context: { fn: () => buildSessionContext(next().entries) },
    prepare: { fn: () => prepareCompaction(next().path, DEFAULT_COMPACTION_SETTINGS) },
    prune: {
      fn: () => {
        const { path } = next();
        pruned = { path, result: pruneToolOutputs(path, undefined, 0) };
      },
      // Pruning mutates the branch; undoing it (untimed) gives every call the same input.
      teardown: () => {
        if (pruned) restorePrunedToolOutputs(pruned.path, pruned.result.pruned);
      },
    },
  };
  const path = copies[0]!.path;
  prunedCount.set(s.n, pruneToolOutputs(parseAll(path.map((e) => JSON.stringify(e))), undefined, 0).prunedCount);
  const calls = {} as Subject["calls"];
  for (const op of OPS) calls[op] = { ...fns[op], inner: calibrate(fns[op].fn, 40, fns[op].teardown) };
  return { s, path, calls, runs: { parse: [], index: [], context: [], prepare: [], prune: [] } };
}

/** Median per-entry ns of each op, rounds interleaved over sizes so noise hits every size alike. */
function measure(sessions: BenchSession[]): { n: number; ns: Record<Op, number> }[] {
  const subjects = sessions.map(subject);
  for (let round = 0; round < ROUNDS; round++) {
    for (const x of subjects) {
      for (const op of OPS) x.runs[op].push(sampleSync(x.calls[op].fn, x.calls[op].inner, x.calls[op].teardown));
    }
  }
  return subjects.map((x) => {
    const ns = {} as Record<Op, number>;
    for (const op of OPS) ns[op] = (median(x.runs[op]) * 1e6) / x.s.n;
    const floor = `JSON.parse ${formatNs(ns.parse)}`;
    const n = label(x.s.n);
    const note = `branch ${x.path.length} of ${x.s.n} entries`;
    addRow({ section: "engine", name: "buildSessionContext", n, value: formatNs(ns.context), baseline: floor, ratio: ns.context / ns.parse });
    addRow({ section: "engine", name: "prepareCompaction", n, value: formatNs(ns.prepare), baseline: floor, ratio: ns.prepare / ns.parse, note });
    addRow({ section: "engine", name: "pruneToolOutputs", n, value: formatNs(ns.prune), baseline: floor, ratio: ns.prune / ns.parse, note });
    return { n: x.s.n, ns };
  });
}

const NAMES: Record<Op, string> = {
  context: "buildSessionContext",
  prepare: "prepareCompaction",
  prune: "pruneToolOutputs",
  parse: "JSON.parse (floor)",
  index: "new Map(id → entry) (reference)",
};

export async function engineBench(sessions: BenchSession[]): Promise<void> {
  console.log("\nengine: per-entry cost vs JSON.parse of the same entries");
  const results = measure(sessions);
  const last = results.at(-1)!;
  // 100k against 1k (the brief's figure) and against 10k: from 10k on, both sizes are far
  // beyond the CPU caches, so that ratio isolates the algorithm from the memory hierarchy.
  for (const first of results.slice(0, -1)) {
    for (const op of ["context", "prepare", "prune", "parse", "index"] as const) {
      const ratio = last.ns[op] / first.ns[op];
      addRow({
        section: "engine",
        name: `${NAMES[op]}: per-entry growth`,
        n: `${label(last.n)} vs ${label(first.n)}`,
        value: formatNs(last.ns[op]),
        baseline: formatNs(first.ns[op]),
        ratio,
        ...(op === "prune" ? { note: `pruned ${prunedCount.get(last.n)} vs ${prunedCount.get(first.n)} results` } : {}),
      });
    }
  }
}
