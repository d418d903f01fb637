import "server-only";
/**
 * The user's own prices (docs/usage.md "Prices"): stored in price_overrides, in millionths of a
 * dollar per million tokens, and applied to the ledger's stored costs.
 *
 * Contract:
 * - A cost the file records always wins: rows with a recorded cost are never repriced.
 * - Applied when written: the ledger's insert prices a row with the override of its model in SQL
 *   (ledger-write.ts). Applied to the past when set or removed: the same transaction reprices the
 *   model's stored rows (one UPDATE; usage_rows' triggers carry the change into the Usage page's
 *   rollup and the sessions' costs). Removing an override restores the catalogue price kept with
 *   each row (`catalogue_cost_micros`), or "price unknown" where the catalogue has none.
 * - Why stored, not applied at query time: the Usage page, the list's sort by cost and the
 *   reports sum stored costs in PostgreSQL (pre-aggregated), and the catalogue fallback is a
 *   JavaScript package that SQL cannot call; an override is a rare edit, a query is every page.
 */
import type { PriceOverride } from "@/lib/usage/prices";
import { getDb } from "../client";
import { withTransaction } from "../store/sql";

export interface StoredPriceOverride extends PriceOverride {
  model: string;
  updatedAt: Date;
}

const REPRICE = `UPDATE usage_rows u SET
    cost_micros = CASE WHEN o.model IS NOT NULL THEN arbor_override_cost(u.input, u.output, u.cache_read, u.cache_write, o)
      ELSE u.catalogue_cost_micros END,
    price_source = CASE WHEN o.model IS NOT NULL THEN 'override' WHEN u.catalogue_cost_micros IS NOT NULL THEN 'catalogue' ELSE 'unknown' END
  FROM (SELECT $1::text AS model) m LEFT JOIN price_overrides o ON o.model = m.model
  WHERE u.model = m.model AND u.recorded_cost_micros IS NULL`;

export async function listPriceOverrides(): Promise<StoredPriceOverride[]> {
  const rows = await getDb().priceOverride.findMany({ orderBy: { model: "asc" } });
  return rows.map((r) => ({
    model: r.model,
    input: Number(r.input),
    output: Number(r.output),
    ...(r.cacheRead !== null ? { cacheRead: Number(r.cacheRead) } : {}),
    ...(r.cacheWrite !== null ? { cacheWrite: Number(r.cacheWrite) } : {}),
    updatedAt: r.updatedAt,
  }));
}

/** Sets (or replaces) the prices of `model` and reprices its stored rows; returns how many rows. */
export async function setPriceOverride(input: { model: string } & PriceOverride): Promise<number> {
  const model = input.model.trim();
  if (!model) throw new Error("price override: the model id is empty");
  for (const [name, value] of Object.entries({ input: input.input, output: input.output, cacheRead: input.cacheRead, cacheWrite: input.cacheWrite })) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new Error(`price override for ${model}: ${name} must be a whole number of millionths of a dollar per million tokens ≥ 0`);
    }
  }
  return withTransaction(async (tx) => {
    await tx.$executeRawUnsafe(
      `INSERT INTO price_overrides (model, input, output, cache_read, cache_write, updated_at) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (model) DO UPDATE SET input = excluded.input, output = excluded.output, cache_read = excluded.cache_read,
         cache_write = excluded.cache_write, updated_at = now()`,
      model,
      input.input,
      input.output,
      input.cacheRead ?? null,
      input.cacheWrite ?? null,
    );
    return tx.$executeRawUnsafe(REPRICE, model);
  }, { timeoutMs: 120_000 });
}

/** Removes the user's prices of `model`; its rows go back to the catalogue's price (or unknown). */
export async function removePriceOverride(input: { model: string }): Promise<number> {
  return withTransaction(async (tx) => {
    await tx.$executeRawUnsafe("DELETE FROM price_overrides WHERE model = $1", input.model);
    return tx.$executeRawUnsafe(REPRICE, input.model);
  }, { timeoutMs: 120_000 });
}

export interface LedgerModel {
  model: string;
  calls: number;
  tokens: number;
  /** Tokens of calls with no price (no recorded cost, no catalogue price, no override). */
  unpricedTokens: number;
}

/** The models the ledger counts calls of, with their tokens (from usage_daily: no ledger scan). */
export async function pricedModels(): Promise<LedgerModel[]> {
  const rows = await getDb().$queryRawUnsafe<{ model: string; calls: bigint; tokens: bigint; unpriced: bigint }[]>(
    `SELECT grp AS model, sum(calls) AS calls, sum(input + output + cache_read + cache_write) AS tokens, sum(unpriced_tokens) AS unpriced
     FROM usage_daily WHERE stack = 'model' GROUP BY grp HAVING sum(calls) > 0 ORDER BY grp`,
  );
  return rows.map((r) => ({ model: r.model, calls: Number(r.calls), tokens: Number(r.tokens), unpricedTokens: Number(r.unpriced) }));
}
