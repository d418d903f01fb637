/**
 * The fast evaluator against the catalogue itself: for every model of the providers agents
 * record, on the dates its prices change, the evaluator gives `calcPrice`'s total bit for bit,
 * tiers' edges included; and a ledger priced row by row equals `calcPrice` row by row.
 */
import { calcPrice, findProvider } from "@pydantic/genai-prices";
import { describe, expect, it } from "vitest";
import { catalogueRates } from "./catalogue-rates";
import { priceRow } from "./prices";
import type { UsageRow } from "./rows";

/** A small seeded generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number) {
  let a = seed >>> 0;
  return (below: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

const PROVIDERS = ["anthropic", "openai", "google", "mistral", "groq", "deepseek", "x-ai", "openrouter"];

/** Token counts around every tier start of a price, and random ones. */
function usages(tierStarts: number[], next: (below: number) => number) {
  const out: { input: number; cacheRead: number; cacheWrite: number; output: number }[] = [];
  for (const start of [0, ...tierStarts]) {
    for (const all of [start - 1, start, start + 1]) {
      if (all < 0) continue;
      const cacheRead = next(all + 1);
      const cacheWrite = next(all - cacheRead + 1);
      out.push({ input: all - cacheRead - cacheWrite, cacheRead, cacheWrite, output: next(40_000) });
    }
  }
  for (let i = 0; i < 12; i++) {
    out.push({ input: next(300_000), cacheRead: next(500_000), cacheWrite: next(50_000), output: next(64_000) });
  }
  return out;
}

describe("catalogue rates", () => {
  it("equal calcPrice's total for every model, date and tier edge the evaluator takes", () => {
    const next = random(7);
    let compared = 0;
    const declined: string[] = [];
    for (const providerId of PROVIDERS) {
      const provider = findProvider({ providerId });
      expect(provider, providerId).toBeDefined();
      for (const model of provider!.models) {
        const entries = Array.isArray(model.prices) ? model.prices : [{ prices: model.prices }];
        const dates = entries.flatMap((e) =>
          e.constraint?.type === "start_date" ? [new Date(e.constraint.start_date)] : [new Date("2024-06-01T12:00:00Z")],
        );
        for (const at of dates) {
          const probe = calcPrice({ input_tokens: 1 }, model.id, { provider: provider!, timestamp: at });
          if (!probe) continue;
          const rates = catalogueRates(probe.model_price);
          if (!rates) {
            // Only prices of what a ledger row cannot hold (no input price, per request, by hours
            // or pages) may be declined.
            const keys = Object.keys(probe.model_price);
            if (keys.includes("input_mtok") && keys.every((k) => k.endsWith("_mtok") || k.endsWith("_kcount"))) {
              declined.push(`${providerId}/${model.id}: ${keys.join(", ")}`);
            }
            continue;
          }
          const starts = Object.values(probe.model_price).flatMap((p) =>
            typeof p === "object" && p ? p.tiers.map((t) => t.start) : [],
          );
          for (const t of usages(starts, next)) {
            const usage = {
              input_tokens: t.input + t.cacheRead + t.cacheWrite,
              cache_read_tokens: t.cacheRead,
              cache_write_tokens: t.cacheWrite,
              output_tokens: t.output,
            };
            const expected = calcPrice(usage, model.id, { provider: provider!, timestamp: at });
            expect(rates(t), `${providerId}/${model.id} at ${at.toISOString()} ${JSON.stringify(t)}`).toBe(expected!.total_price);
            compared++;
          }
        }
      }
    }
    expect(declined).toEqual([]);
    expect(compared).toBeGreaterThan(10_000);
  });

  it("declines prices it cannot reproduce", () => {
    expect(catalogueRates({ input_mtok: 1, output_mtok: 2, requests_kcount: 5 })).toBeUndefined();
    expect(catalogueRates({ output_mtok: 2 })).toBeUndefined();
    expect(catalogueRates({ input_mtok: 1, output_mtok: 2, some_future_mtok: 3 })).toBeUndefined();
    expect(catalogueRates({ input_mtok: 1, output_mtok: 2, web_searches_kcount: 10 })).toBeTypeOf("function");
  });

  it("prices a ledger row by row as calcPrice does, the first row of a model and the rest alike", () => {
    const next = random(11);
    const models: [string, string, string][] = [
      ["anthropic", "anthropic", "claude-sonnet-4-5-20250929"],
      ["anthropic", "anthropic", "claude-3-5-haiku-20241022"],
      ["openai-codex", "openai", "gpt-5-codex"],
      ["google-gemini-cli", "google", "gemini-2.5-pro"],
      ["deepseek", "deepseek", "deepseek-chat"],
    ];
    for (const [provider, providerId, model] of models) {
      for (let i = 0; i < 60; i++) {
        const at = Date.parse("2025-11-01T00:00:00Z") + next(40) * 86_400_000 + next(86_400_000);
        const row: UsageRow = {
          entryId: `e${i}`,
          kind: "message",
          at,
          provider,
          model,
          input: next(i % 3 === 0 ? 400_000 : 20_000),
          output: next(30_000),
          cacheRead: next(300_000),
          cacheWrite: next(20_000),
          reasoning: 0,
        };
        const usage = {
          input_tokens: row.input + row.cacheRead + row.cacheWrite,
          cache_read_tokens: row.cacheRead,
          cache_write_tokens: row.cacheWrite,
          output_tokens: row.output,
        };
        const expected = calcPrice(usage, model, { providerId, timestamp: new Date(at) });
        expect(expected, `${providerId}/${model} is in the catalogue`).not.toBeNull();
        expect(priceRow(row), `${model} row ${i}`).toEqual({
          costMicros: Math.round(expected!.total_price * 1_000_000),
          source: "catalogue",
        });
      }
    }
  });
});
