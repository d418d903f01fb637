/**
 * A model's catalogue prices as a small evaluator, so a sync prices a ledger row in about a
 * microsecond (priceRow, its cache keys included) instead of a 20–40 µs `calcPrice` call (which
 * matches the provider and the model and walks its unit tree on every call: 1 s of a 15 s first
 * sync of 221 files).
 *
 * Contract: for the usages a ledger row holds (input, cache read, cache write and output tokens,
 * nothing else) the evaluator `catalogueRates` returns gives exactly the `total_price` that
 * `calcPrice` returns for the same model price, bit for bit (the same operations in the same
 * order; catalogue-rates.test.ts compares the two over every model of the providers we map,
 * tiers' edges included). A price it cannot reproduce (a per-request price, a unit we have not
 * checked) gives `undefined`; prices.ts keeps a model whose price depends on the time of day
 * from it too. Either way the catalogue is asked row by row as before.
 */

/** One price as the catalogue states it: dollars per million, flat or by the prompt's size. */
type Rate = number | { base: number; tiers: readonly { start: number; price: number }[] };

/** The catalogue's price keys that bill the tokens a ledger row records. */
const BILLED = ["input_mtok", "cache_read_mtok", "cache_write_mtok", "output_mtok"] as const;
type Billed = (typeof BILLED)[number];

/** Price keys that bill usage a ledger row never reports (its count is 0, so is its price), and
 * that take no tokens from the four above (they are more specific units: audio, images, the
 * one-hour cache, searches). Any key not here or in BILLED sends the model to the slow path. */
const UNBILLED = new Set([
  "cache_write_1h_mtok",
  "cache_audio_read_mtok",
  "cache_image_read_mtok",
  "input_audio_mtok",
  "input_image_mtok",
  "input_video_mtok",
  "output_audio_mtok",
  "output_image_mtok",
  "output_video_mtok",
  "output_reasoning_mtok",
  "web_searches_kcount",
  "storage_searches_kcount",
]);

export interface CatalogueTokens {
  /** Input not read from or written to the cache. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export type CatalogueRates = (tokens: CatalogueTokens) => number;

const isRate = (v: unknown): v is Rate =>
  (typeof v === "number" && Number.isFinite(v) && v >= 0) ||
  (typeof v === "object" && v !== null && typeof (v as { base?: unknown }).base === "number" &&
    Array.isArray((v as { tiers?: unknown }).tiers));

/** The evaluator of one model price (the `model_price` of a `calcPrice` result), or undefined. */
export function catalogueRates(modelPrice: Readonly<Record<string, unknown>>): CatalogueRates | undefined {
  const billed: { key: Billed; rate: Rate }[] = [];
  for (const [key, value] of Object.entries(modelPrice)) {
    if (value === undefined) continue;
    if ((BILLED as readonly string[]).includes(key)) {
      if (!isRate(value)) return undefined;
      const rate: Rate =
        typeof value === "number" ? value : { base: value.base, tiers: [...value.tiers].sort((a, b) => a.start - b.start) };
      billed.push({ key: key as Billed, rate });
    } else if (!UNBILLED.has(key)) {
      return undefined;
    }
  }
  if (!billed.some((b) => b.key === "input_mtok")) return undefined;
  const tiered = billed.some((b) => typeof b.rate === "object");
  const pricedRead = billed.some((b) => b.key === "cache_read_mtok");
  const pricedWrite = billed.some((b) => b.key === "cache_write_mtok");
  return (t) => {
    // The catalogue's input is all input; a cache read or write it has no price for stays input.
    const allInput = t.input + t.cacheRead + t.cacheWrite;
    const counts: Record<Billed, number> = {
      input_mtok: allInput - (pricedRead ? t.cacheRead : 0) - (pricedWrite ? t.cacheWrite : 0),
      cache_read_mtok: t.cacheRead,
      cache_write_mtok: t.cacheWrite,
      output_mtok: t.output,
    };
    // A tier applies to the whole call once the prompt (all input) is past its start.
    const promptSize = tiered ? allInput : 0;
    let input = 0;
    let output = 0;
    for (const { key, rate } of billed) {
      const n = counts[key];
      let dollars: number;
      if (typeof rate === "number") dollars = (rate * n) / 1e6;
      else if (n <= 0) dollars = 0;
      else {
        let price = rate.base;
        for (const tier of rate.tiers) if (promptSize > tier.start) price = tier.price;
        dollars = (((price * n) / 1e6) * 1e6) / 1e6;
      }
      if (key === "output_mtok") output += dollars;
      else input += dollars;
    }
    return input + output;
  };
}
