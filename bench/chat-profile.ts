/**
 * `tsx --conditions=react-server bench/chat-profile.ts [N]`: a CPU profile of chat turns on the
 * imported N-entry bench session (default 10k), written to <tmp>/arbor-chat-N.cpuprofile, with
 * the top self-time functions printed; `… 10000 compacted` profiles bench/lib/compacted.ts's copy. A tool for finding where a turn's time goes, not a bench.
 */
import { Session } from "node:inspector/promises";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { importSession } from "@/lib/db";
import { arborTurn, startHarness } from "./lib/chat-harness";
import { compactedCopy } from "./lib/compacted";
import { openBenchDatabase } from "./lib/database";
import { benchSession } from "./lib/sessions";

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }

const n = Number(process.argv[2] ?? 10_000);
const compacted = process.argv[3] === "compacted";
const dir = await mkdtemp(path.join(tmpdir(), "arbor-prof-"));
const db = await openBenchDatabase();
try {
  const s = await benchSession(n, dir);
  const sessionId = compacted ? (await compactedCopy(s.file)).id : (await importSession({ source: s.file })).sessionId;
  const h = await startHarness(dir);
  for (let i = 0; i < 2; i++) console.log("warm", await arborTurn(h, sessionId, `warm ${i}`));
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  for (let i = 0; i < 3; i++) console.log("turn", await arborTurn(h, sessionId, `measured ${i}`));
  const { profile } = (await session.post("Profiler.stop")) as { profile: { nodes: Node[]; startTime: number; endTime: number; samples: number[] } };
  const file = path.join(tmpdir(), `arbor-chat-${n}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  const self = new Map<string, number>();
  const total = profile.samples.length;
  for (const node of profile.nodes) {
    const key = `${node.callFrame.functionName || "(anon)"} ${node.callFrame.url.split("/").slice(-2).join("/")}:${node.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (node.hitCount ?? 0));
  }
  console.log(`profile ${file}: ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${((v / total) * 100).toFixed(1).padStart(5)}% ${k}`);
  await h.close();
} finally {
  await db.close();
}
process.exit(0);
