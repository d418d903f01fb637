/**
 * CPU of this process and of a local PostgreSQL server while something runs, sampled every
 * 100 ms from /proc (Linux only), to tell whether the two really work at the same time
 * (bench/import-profile.ts `--only live`).
 *
 * The server's CPU is the sum over the postmaster and its children (backends, WAL writer,
 * checkpointer, …). A backend that exits (a connection closed) loses the CPU it used after the
 * last sample, so the server's total is a lower bound by up to 100 ms per closed connection.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The parent pid and the CPU ms (user + system) of process `pid`, from /proc (throws once it has ended). */
function processStat(pid: number | string): { parent: number; cpuMs: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { parent: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND };
}

/** CPU ms (user + system) process `pid` has used so far, in ticks of 1000 / TICKS_PER_SECOND ms. */
export function processCpuMs(pid: number): number {
  return processStat(pid).cpuMs;
}

/** CPU ms of the postmaster `postmaster` and of each of its children, by pid. */
function serverCpu(postmaster: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const pid = Number(name);
      const { parent, cpuMs } = processStat(name);
      if (pid !== postmaster && parent !== postmaster) continue;
      out.set(pid, cpuMs);
    } catch {
      // The process ended between readdir and read.
    }
  }
  return out;
}

export interface CpuSplit {
  wallMs: number;
  nodeMs: number;
  serverMs: number;
  /** Shares of the 100 ms samples in which each side used more than half a core. */
  both: number;
  onlyNode: number;
  onlyServer: number;
}

export async function measureCpuSplit(postmaster: number, run: () => Promise<unknown>): Promise<CpuSplit> {
  let lastServer = serverCpu(postmaster);
  let lastNode = process.cpuUsage();
  let last = performance.now();
  let serverMs = 0;
  const samples: { node: number; server: number }[] = [];
  const sample = () => {
    const now = performance.now();
    const node = process.cpuUsage(lastNode);
    lastNode = process.cpuUsage();
    const current = serverCpu(postmaster);
    let server = 0;
    for (const [pid, ms] of current) server += ms - (lastServer.get(pid) ?? 0);
    lastServer = current;
    serverMs += server;
    const dt = now - last;
    last = now;
    samples.push({ node: (node.user + node.system) / 1000 / dt, server: server / dt });
  };
  const nodeStart = process.cpuUsage();
  const start = performance.now();
  const timer = setInterval(sample, 100);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  sample();
  const node = process.cpuUsage(nodeStart);
  const share = (f: (s: { node: number; server: number }) => boolean) => samples.filter(f).length / samples.length;
  return {
    wallMs: performance.now() - start,
    nodeMs: (node.user + node.system) / 1000,
    serverMs,
    both: share((s) => s.node > 0.5 && s.server > 0.5),
    onlyNode: share((s) => s.node > 0.5 && s.server <= 0.5),
    onlyServer: share((s) => s.node <= 0.5 && s.server > 0.5),
  };
}
