/**
 * The usage bench's data (bench/usage.ts): `sessions` session rows and their usage ledgers,
 * written through the import's own functions (`insertSessionRow`, then `writeLedger`, which
 * prices each row and fires the ledger's triggers as an import does), 100 sessions per bulk
 * transaction, on the database of DATABASE_URL. No entries: the Usage page and the session list
 * read none, and the bench stays independent of how entries are stored.
 *
 * Shape (seeded): sessions spread over the 365 days before 2026-11-01, 10–110 model calls each
 * (one every 20–90 s), one model per session mostly (a second for a fifth of the calls in a third
 * of the sessions) out of six, one an unknown model ("price unknown"); 40 projects; a third each
 * pi, Claude Code (with response keys) and Codex headers; pi's calls record their cost.
 */
import { Rng } from "@/lib/random";
import type { SessionHeader } from "@/lib/session/types";
import type { UsageRow } from "@/lib/usage/rows";
import { insertSessionRow } from "@/lib/db/store/session";
import { withBulkTransaction } from "@/lib/db/store/sql";
import { writeLedger } from "@/lib/db/usage/ledger-write";

const MODELS = [
  { provider: "anthropic", model: "claude-sonnet-4-5" },
  { provider: "anthropic", model: "claude-opus-4-5" },
  { provider: "anthropic", model: "claude-haiku-4-5" },
  { provider: "openai", model: "gpt-5.1-codex" },
  { provider: "google", model: "gemini-2.5-pro" },
  { provider: "acme", model: "acme-private-1" },
] as const;
const FORMATS = ["pi", "claude-code", "codex"] as const;
const END = Date.parse("2026-11-01T00:00:00Z");
const YEAR = 365 * 86_400_000;

export interface SeedResult {
  sessions: number;
  rows: number;
  ms: number;
}

function sessionRows(rng: Rng, index: number): { header: SessionHeader; rows: UsageRow[]; last: number } {
  const format = FORMATS[index % FORMATS.length]!;
  const start = END - YEAR + Math.floor(rng.next() * YEAR);
  const main = rng.pick(MODELS);
  const second = rng.chance(1 / 3) ? rng.pick(MODELS) : undefined;
  const calls = rng.int(10, 110);
  const rows: UsageRow[] = [];
  let at = start;
  let context = rng.int(2000, 12_000);
  for (let i = 0; i < calls; i++) {
    at += rng.int(20, 90) * 1000;
    const m = second && rng.chance(0.2) ? second : main;
    const input = rng.int(1, 400);
    const output = rng.int(50, 2500);
    const cacheWrite = rng.chance(0.3) ? rng.int(500, 4000) : 0;
    rows.push({
      entryId: `e${i.toString(36)}`,
      kind: "message",
      at,
      provider: m.provider,
      model: m.model,
      input,
      output,
      cacheRead: context,
      cacheWrite,
      reasoning: 0,
      ...(format === "pi" ? { recordedCostMicros: Math.round(input * 3 + output * 15 + context * 0.3 + cacheWrite * 3.75) } : {}),
      ...(format === "claude-code" ? { dedupeKey: `anthropic:msg_${index}_${i}:req_${index}_${i}` } : {}),
    });
    context += cacheWrite + output;
  }
  const header: SessionHeader = {
    type: "session",
    version: 3,
    id: `usage-bench-${index.toString().padStart(5, "0")}`,
    timestamp: new Date(start).toISOString(),
    cwd: `/home/dev/project-${rng.int(1, 40)}`,
    ...(format === "pi" ? {} : { sourceFormat: format }),
  } as SessionHeader;
  return { header, rows, last: at };
}

export async function seedUsage(sessions: number, seed = 31): Promise<SeedResult> {
  const started = performance.now();
  const rng = Rng.seeded(seed);
  let rows = 0;
  for (let i = 0; i < sessions; i += 100) {
    const batch = Array.from({ length: Math.min(100, sessions - i) }, (_, k) => sessionRows(rng, i + k));
    await withBulkTransaction(async (sql) => {
      for (const s of batch) {
        await insertSessionRow(sql, { header: s.header, title: `usage bench ${s.header.id}`, createdAt: new Date(s.header.timestamp), lastActivityAt: new Date(s.last) });
        await writeLedger(sql, s.header.id, s.rows);
        rows += s.rows.length;
      }
    });
  }
  return { sessions, rows, ms: performance.now() - started };
}
