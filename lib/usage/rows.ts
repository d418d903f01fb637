/**
 * The usage ledger's rows of one session, derived from its entries (docs/usage.md).
 * Pure: no database, network or package imports; prices are applied elsewhere (prices.ts).
 *
 * Contract:
 * - One row per model call the session records: each assistant message with a usage, and each
 *   compaction or branch summary that carries one (pi ≥ 0.84 and Arbor record the summary
 *   call's usage and model on the entry).
 * - Tokens are as the agent reported them, split the way the engine's `Usage` is: `input` is
 *   the uncached input, `cacheRead` / `cacheWrite` the cached parts, `output` includes
 *   reasoning, `reasoning` is the reasoning part of it where the agent says.
 * - `recordedCostMicros` is the cost the file itself records (pi, opencode, old Claude Code
 *   `costUSD`), in millionths of a dollar; it wins over any catalogue price.
 * - `dedupeKey` names the provider's response where the agent may write one response several
 *   times: Claude Code writes a streamed response as one record per content block, each with the
 *   response's usage, and a resumed session copies earlier records into its new file. The
 *   ledger counts a key once, first seen first, as ccusage does; for Claude Code the row's tokens
 *   are those of the response's FIRST record (what ccusage counts; the mapper keeps them as
 *   `source.firstUsage` when a later record of the response reports more).
 */
import type { AssistantMessage, SessionEntry, SessionHeader } from "@/lib/session/types";

export type UsageKind = "message" | "compaction" | "branch_summary";

export interface UsageRow {
  entryId: string;
  kind: UsageKind;
  /** Milliseconds since the epoch. */
  at: number;
  provider: string;
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  recordedCostMicros?: number;
  dedupeKey?: string;
}

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null && !Array.isArray(v);
const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : 0);

/** Dollars (a float as files record them) → whole millionths. */
export function dollarsToMicros(dollars: number): number {
  return Math.round(dollars * 1_000_000);
}

function tokensOf(usage: Loose): Pick<UsageRow, "input" | "output" | "cacheRead" | "cacheWrite" | "reasoning"> {
  return {
    input: count(usage.input),
    output: count(usage.output),
    cacheRead: count(usage.cacheRead),
    cacheWrite: count(usage.cacheWrite),
    reasoning: count(usage.reasoning),
  };
}

function recordedCost(usage: Loose, source: Loose | undefined): number | undefined {
  const cost = usage.cost;
  if (isObject(cost) && typeof cost.total === "number" && cost.total > 0) return dollarsToMicros(cost.total);
  // Claude Code before 1.0.x recorded the record's price as `costUSD`.
  if (source && typeof source.costUSD === "number" && source.costUSD > 0) return dollarsToMicros(source.costUSD);
  return undefined;
}

function splitModel(model: string | undefined, provider: string | undefined): { provider: string; model: string } {
  if (!model) return { provider: provider ?? "unknown", model: "unknown" };
  const slash = model.indexOf("/");
  if (!provider && slash > 0) return { provider: model.slice(0, slash), model: model.slice(slash + 1) };
  return { provider: provider ?? "unknown", model };
}

function time(entry: SessionEntry, fallback: number): number {
  const t = Date.parse(entry.timestamp);
  return Number.isFinite(t) ? t : fallback;
}

function claudeKey(source: Loose | undefined): string | undefined {
  const message = source && isObject(source.message) ? source.message : undefined;
  const id = message && typeof message.id === "string" ? message.id : undefined;
  const request = source && typeof source.requestId === "string" ? source.requestId : undefined;
  return id && request ? `anthropic:${id}:${request}` : undefined;
}

function messageRow(entry: SessionEntry, message: AssistantMessage, fallback: number): UsageRow | undefined {
  const source = isObject((entry as Loose).source) ? ((entry as Loose).source as Loose) : undefined;
  const billed = source && isObject(source.firstUsage) ? (source.firstUsage as Loose) : (message.usage as unknown as Loose);
  if (!isObject(billed)) return undefined;
  const tokens = tokensOf(billed);
  const cost = recordedCost(message.usage as unknown as Loose, source);
  if (tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite === 0 && cost === undefined) return undefined;
  const dedupeKey = message.api === "anthropic-messages" ? claudeKey(source) : undefined;
  return {
    entryId: entry.id,
    kind: "message",
    at: time(entry, message.timestamp || fallback),
    ...splitModel(message.model, message.provider),
    ...tokens,
    ...(cost !== undefined ? { recordedCostMicros: cost } : {}),
    ...(dedupeKey ? { dedupeKey } : {}),
  };
}

function summaryRow(entry: SessionEntry & Loose, kind: UsageKind, fallback: number): UsageRow | undefined {
  const usage = entry.usage;
  if (!isObject(usage)) return undefined;
  const tokens = tokensOf(usage);
  const cost = recordedCost(usage, undefined);
  if (tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite === 0 && cost === undefined) return undefined;
  const model = typeof entry.model === "string" ? entry.model : undefined;
  const provider = typeof entry.provider === "string" ? entry.provider : undefined;
  return {
    entryId: entry.id,
    kind,
    at: time(entry, fallback),
    ...splitModel(model, provider),
    ...tokens,
    ...(cost !== undefined ? { recordedCostMicros: cost } : {}),
  };
}

/** The ledger row of one entry, if it records a model call; `fallback` is the time of an entry without one (ms). */
export function usageRowOf(entry: SessionEntry, fallback: number): UsageRow | undefined {
  if (entry.type === "message" && entry.message.role === "assistant") return messageRow(entry, entry.message, fallback);
  if (entry.type === "compaction") return summaryRow(entry as SessionEntry & Loose, "compaction", fallback);
  if (entry.type === "branch_summary") return summaryRow(entry as SessionEntry & Loose, "branch_summary", fallback);
  return undefined;
}

/** The ledger rows of one session's entries, in entry order. */
export function usageRows(header: SessionHeader, entries: readonly SessionEntry[]): UsageRow[] {
  const fallback = Date.parse(header.timestamp) || 0;
  const rows: UsageRow[] = [];
  for (const entry of entries) {
    const row = usageRowOf(entry, fallback);
    if (row) rows.push(row);
  }
  return rows;
}

/**
 * The key under which the database ledger counts a row once across sessions: the response key
 * where the agent gives one, else the row's content (time, model, tokens, entry id), which a
 * fork's copy of the entry repeats and an unrelated entry practically never does.
 */
export function ledgerKey(row: UsageRow): string {
  if (row.dedupeKey) return row.dedupeKey;
  return `entry:${row.at}:${row.provider}/${row.model}:${row.input}:${row.output}:${row.cacheRead}:${row.cacheWrite}:${row.entryId}`;
}

/** Drops rows whose dedupeKey was seen before (in `seen`, which it extends), first seen first. */
export function firstOfEachResponse(rows: readonly UsageRow[], seen: Set<string>): UsageRow[] {
  const kept: UsageRow[] = [];
  for (const row of rows) {
    if (row.dedupeKey) {
      if (seen.has(row.dedupeKey)) continue;
      seen.add(row.dedupeKey);
    }
    kept.push(row);
  }
  return kept;
}

/** All tokens of a row (reasoning is part of output). */
export function totalTokens(row: Pick<UsageRow, "input" | "output" | "cacheRead" | "cacheWrite">): number {
  return row.input + row.output + row.cacheRead + row.cacheWrite;
}
