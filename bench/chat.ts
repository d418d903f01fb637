/**
 * Chat overhead: time to first token of a turn through Arbor against the model server alone.
 *
 * - Arbor: what POST /api/chat (app/api/chat/route.ts) does, in-process, on a real Request:
 *   parse the body with the route's schema, then `startChatTurn` (lib/chat/turn.ts): claim the
 *   run, load the session from PostgreSQL, build the context, stream through the real
 *   OpenAI-compatible provider to the fake model server (test/fake-llm-server.ts), which runs in
 *   a CHILD process (bench/lib/fake-model-process.ts): a real model server is another machine,
 *   and in-process its reading and JSON.parse of a 4.6 MB body would block Arbor's event loop
 *   and count as Arbor's time. Times that cross the processes are epoch ms
 *   (performance.timeOrigin + performance.now()). The clock stops at the first `text-delta`
 *   part of the UI message stream; the rest of the turn is read (and saved) untimed. The route module itself is not imported: its sign-in check pulls in
 *   `next/headers`, which does not load outside Next (with sign-in off it is a no-op anyway).
 *   The set-up mirrors test/chat-harness.ts, which imports the route modules.
 * - Baseline: the request body Arbor just sent, POSTed straight to the fake server with fetch;
 *   clock stopped at the first SSE chunk that carries content.
 * Sessions: a new one with 20 entries, the imported 1k and 10k sessions (the context window is
 * set large so no automatic compaction runs between the measured turns: the 10k turn sends all
 * ~10k messages, the worst case), and "10k compacted": a copy of the 10k session that has
 * compacted (bench/lib/compacted.ts), whose context fits a 200k-token window — what a real
 * window makes of a long session.
 * "Model request leaves" is the time from the POST until the model server has the whole body
 * (before it parses it). It is split at the moment the provider hands the serialized body to
 * `fetch` (Arbor's own work, the provider's body building included); the rest is the transfer.
 * When the server had parsed the body is reported beside it, and so is this process's CPU time
 * (process.cpuUsage, user + system) from the POST until fetch: on a machine shared with other
 * work the wall times move with the load, Arbor's own CPU time much less.
 * Every round starts a session from the leaf it had before the first round (the leaf is moved
 * back, untimed), then times two turns: the first after that move (what a retry or a branch
 * from a recent message costs), the second continuing it (an ordinary turn, the one the
 * targets are about). So every measured turn of a session sends the same context however
 * many rounds run, and the 20-entry session stays one.
 */
import { branch, findSessionMeta, loadEntries } from "@/lib/db";
import { listModelCalls } from "@/lib/inspector/calls";
import { inspectEntry } from "@/lib/inspector/inspect";
import { clearTurnMessagesCache } from "@/lib/inspector/turn-messages-cache";
import { loadPrompts } from "@/lib/llm/prompts";
import type { Imported } from "./import";
import { arborTurn, directTurn, smallSession, startHarness } from "./lib/chat-harness";
import { compactedCopy } from "./lib/compacted";
import { statementCounter } from "./lib/database";
import { label } from "./lib/sessions";
import { addRow, formatMs, median } from "./lib/stats";

/**
 * Measured rounds of the 10k session that sends every message, and of the interleaved sessions
 * (20, 1k, 10k compacted): their turns take ~5–10 ms, and single turns on this machine vary from
 * 4 to 12 ms, so a median of 30 still moves by ~10 %; they run more rounds.
 */
const ROUNDS = 9;
const SMALL_ROUNDS = 80;

interface Target {
  n: number;
  label: string;
  id: string;
  note?: string;
}

interface Result {
  ttft: number;
  /** The same body's time to first token posted to the fake model server directly. */
  direct: number;
  overhead: number;
  request: number;
  sent: number;
  parsed: number;
  /** Arbor's CPU time until fetch: robust to load from other processes, unlike the wall times. */
  cpu: number;
}

interface Samples {
  first: number[];
  request: number[];
  sent: number[];
  parsed: number[];
  cpu: number[];
  direct: number[];
  statements: number;
  body: Uint8Array<ArrayBuffer>;
}

const newSamples = (): Samples => ({ first: [], request: [], sent: [], parsed: [], cpu: [], direct: [], statements: 0, body: new Uint8Array(new ArrayBuffer(0)) });

function resultOf(m: Samples): Result {
  const ttft = median(m.first);
  const direct = median(m.direct);
  return { ttft, direct, overhead: ttft - direct, request: median(m.request), sent: median(m.sent), parsed: median(m.parsed), cpu: median(m.cpu) };
}

/** Median ms of JSON.stringify and JSON.parse of the 10k request body (the body's own cost). */
function bodyCost(bytes: Uint8Array): { stringify: number; parse: number; bytes: number } {
  const s: number[] = [];
  const p: number[] = [];
  const body: unknown = JSON.parse(Buffer.from(bytes).toString("utf8"));
  let text = "";
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    text = JSON.stringify(body);
    s.push(performance.now() - t);
    t = performance.now();
    JSON.parse(text);
    p.push(performance.now() - t);
  }
  return { stringify: median(s), parse: median(p), bytes: Buffer.byteLength(text) };
}

export async function chatBench(dir: string, imported: Imported): Promise<void> {
  console.log("\nchat: time to first token through Arbor vs the fake model server directly");
  const h = await startHarness(dir);
  try {
    const targets: Target[] = [{ n: 20, label: "20", id: await smallSession(10) }];
    for (const n of [1000, 10_000]) {
      const s = imported.get(n);
      if (s) targets.push({ n, label: label(n), id: s.id });
    }
    const big = imported.get(10_000);
    if (big) {
      const c = await compactedCopy(big.session.file);
      targets.push({ n: 10_000, label: "10k compacted", id: c.id, note: `context ${c.contextMessages} messages, ~${Math.round(c.contextTokens / 1000)}k tokens` });
    }
    const results = new Map<string, Result>();
    let bigBody: Uint8Array | undefined;
    // Rounds interleave the sessions (20, 1k, 10k compacted; then 1k, 10k compacted, 20; …), so
    // JIT warm-up, the machine's load and the garbage of the previous turn hit every size alike;
    // round 0 warms up every path. The 10k session that
    // sends every message runs its rounds on its own afterwards: the garbage of its 4.6 MB
    // bodies would otherwise be collected during the next session's turn.
    const samples = new Map<string, Samples>();
    const afterMove = new Map<string, Samples>();
    for (const t of targets) {
      samples.set(t.label, newSamples());
      afterMove.set(t.label, newSamples());
    }
    const startLeaf = new Map<string, string | null>();
    for (const t of targets) startLeaf.set(t.label, (await findSessionMeta({ id: t.id }))?.leafId ?? null);
    const groups = [targets.filter((t) => t.label !== "10k"), targets.filter((t) => t.label === "10k")];
    for (const group of groups) for (let round = 0; round <= (group === groups[0] ? SMALL_ROUNDS : ROUNDS); round++) {
      // Each round starts one session later, so each session follows every other one as often.
      for (const t of group.map((_, i) => group[(i + round) % group.length]!)) {
        const leaf = (await findSessionMeta({ id: t.id }))?.leafId ?? null;
        const start = startLeaf.get(t.label) ?? null;
        if (start !== null && leaf !== start) await branch({ sessionId: t.id, expectedLeafId: leaf, targetId: start });
        for (const m of [afterMove.get(t.label)!, samples.get(t.label)!]) {
          statementCounter.reset();
          const turn = await arborTurn(h, t.id, `benchmark question ${round}: what changed?`);
          m.statements = statementCounter.total;
          m.body = h.lastBody;
          const base = await directTurn(h, m.body);
          if (round === 0) continue;
          m.first.push(turn.first);
          m.request.push(turn.request);
          m.sent.push(turn.sent);
          m.parsed.push(turn.parsed);
          m.cpu.push(turn.cpu);
          m.direct.push(base);
        }
      }
    }
    const moved = new Map<string, Result>();
    for (const t of targets) {
      const m = samples.get(t.label)!;
      const r = resultOf(m);
      results.set(t.label, r);
      moved.set(t.label, resultOf(afterMove.get(t.label)!));
      if (t.label === "10k") bigBody = m.body;
      const bytes = m.body.byteLength;
      addRow({
        section: "chat",
        name: "time to first token via POST /api/chat",
        n: t.label,
        value: `${formatMs(r.ttft)} (+${formatMs(r.overhead)})`,
        baseline: `fake model directly ${formatMs(r.direct)}`,
        ratio: r.ttft / r.direct,
        note:
          `model request reached the model server after ${formatMs(r.request)} (body handed to fetch after ${formatMs(r.sent)}, ${formatMs(r.cpu)} of CPU, ` +
          `then ${formatMs(r.request - r.sent)} in transfer; the server had parsed it after ${formatMs(r.parsed)}); request ${(bytes / 1024).toFixed(0)} KB; ` +
          `${m.statements} statements per turn${t.note ? `; ${t.note}` : ""}`,
      });
    }
    const small = results.get("20");
    /** A figure of session `key` against the 20-entry session's. */
    const versus = (name: string, key: string, value: number, base: number, note: string) =>
      addRow({ section: "chat", name, n: `${key} vs 20`, value: formatMs(value), baseline: `20-entry session ${formatMs(base)}`, ratio: value / base, note });
    for (const key of ["1k", "10k", "10k compacted"]) {
      const other = results.get(key);
      if (!small || !other) continue;
      versus(
        "model request leaves after the POST",
        key,
        other.request,
        small.request,
        `target at 10k: ≤ 30 ms; Arbor's own part (until fetch) ${formatMs(other.sent)} vs ${formatMs(small.sent)}, ` +
          `its CPU time ${formatMs(other.cpu)} vs ${formatMs(small.cpu)} (${(other.cpu / small.cpu).toFixed(2)}×: the figure other processes' load moves least)`,
      );
      versus("time to first token", key, other.ttft, small.ttft, "target at 10k: ≤ 1.2×");
      versus(
        "Arbor's overhead (time to first token − the fake model's own)",
        key,
        other.overhead,
        small.overhead,
        "what Arbor adds before the first token, request size included",
      );
      const smallMoved = moved.get("20");
      const otherMoved = moved.get(key);
      if (!smallMoved || !otherMoved) continue;
      versus(
        "time to first token, the turn after the leaf moved back (a retry)",
        key,
        otherMoved.ttft,
        smallMoved.ttft,
        `Arbor's CPU time until fetch ${formatMs(otherMoved.cpu)} vs ${formatMs(smallMoved.cpu)}; the context is cut back, not built again`,
      );
    }
    if (bigBody !== undefined) {
      const cost = bodyCost(bigBody);
      addRow({
        section: "chat",
        name: "the 10k request body itself: JSON.stringify + JSON.parse",
        n: "10k",
        value: formatMs(cost.stringify + cost.parse),
        baseline: `stringify ${formatMs(cost.stringify)}, parse ${formatMs(cost.parse)}`,
        ratio: (cost.stringify + cost.parse) / (results.get("10k")?.ttft ?? Number.NaN),
        note: `${(cost.bytes / 2 ** 20).toFixed(1)} MB; ratio = share of the 10k time to first token that only serializing and parsing the body costs`,
      });
    }
    for (const t of targets) if (t.label === "1k" || t.label === "10k") await inspectorBench(t);
  } finally {
    await h.close();
  }
}

/**
 * After the turns above the session has recorded model calls, and opening it makes the page
 * fetch the inspector's data: GET …/calls (listModelCalls) and GET …/inspect?entry=<leaf>
 * (inspectEntry). Timed (in-process, the lib functions the routes call) against the page's own
 * read of the entries, interleaved.
 */
async function inspectorBench(t: { n: number; id: string; label: string }): Promise<void> {
  const leafId = (await findSessionMeta({ id: t.id }))?.leafId;
  if (!leafId) return;
  const prompts = loadPrompts();
  const inspector = async () => {
    await listModelCalls({ sessionId: t.id });
    await inspectEntry({ sessionId: t.id, entryId: leafId, prompts });
  };
  const page = () => loadEntries({ sessionId: t.id });
  const a: number[] = [];
  const b: number[] = [];
  const fresh: number[] = [];
  await inspector();
  for (let r = 0; r < 5; r++) {
    let start = performance.now();
    await inspector();
    a.push(performance.now() - start);
    start = performance.now();
    await page();
    b.push(performance.now() - start);
    // The first load after a change: the view is built, not recalled (turn-messages-cache.ts).
    clearTurnMessagesCache();
    start = performance.now();
    await inspector();
    fresh.push(performance.now() - start);
  }
  statementCounter.reset();
  await inspector();
  /** The inspector's times against the page's own read. */
  const row = (name: string, times: number[], note: string) =>
    addRow({
      section: "chat",
      name,
      n: label(t.n),
      value: formatMs(median(times)),
      baseline: `the page's loadEntries ${formatMs(median(b))}`,
      ratio: median(times) / median(b),
      note,
    });
  row(
    "inspector data of a page load (listModelCalls + inspectEntry)",
    a,
    `${statementCounter.total} statements; after the ${2 * ((t.label === "10k" ? ROUNDS : SMALL_ROUNDS) + 1)} turns above; the view is recalled from the process's cache`,
  );
  row("inspector data of a page load, its view built (first load after a change)", fresh, "the turn view's cache emptied before each load");
}
