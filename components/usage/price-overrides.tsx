"use client";
/**
 * The Prices page's table and form (docs/usage.md "Prices"): the user's prices per model, a form
 * to set one (dollars per million tokens), and the models the ledger has seen, with the tokens
 * that still have no price. Saving reprices the stored ledger at once.
 */
import { useActionState } from "react";
import { removeModelPrice, setModelPrice } from "@/app/usage/prices/actions";
import type { ActionResult } from "@/lib/action-result";
import type { PriceOverride } from "@/lib/usage/prices";

export interface PriceRow extends PriceOverride {
  model: string;
  updatedAt: string;
}

export interface ModelRow {
  model: string;
  calls: number;
  tokens: number;
  unpricedTokens: number;
}

const n = (v: number) => v.toLocaleString("en-US");
/** Millionths of a dollar per million tokens → dollars per million, as typed. */
const dollars = (v: number | undefined) => (v === undefined ? "" : String(v / 1_000_000));
const input = "w-24 rounded border border-line bg-[var(--bg)] px-2 py-1";

function Outcome({ state }: { state: ActionResult<{ repriced: number }> | null }) {
  if (!state) return null;
  if (!state.ok) return <p role="alert" className="text-sm text-red-700 dark:text-red-300">{state.message ?? "Could not save the price."}</p>;
  return <p role="status" className="text-sm">Saved: {n(state.data.repriced)} calls repriced.</p>;
}

function RemoveButton({ model }: { model: string }) {
  const [state, remove, pending] = useActionState(removeModelPrice, null);
  return (
    <form action={remove} className="inline">
      <input type="hidden" name="model" value={model} />
      <button type="submit" disabled={pending} className="underline disabled:opacity-60" aria-label={`Remove the price of ${model}`}>
        Remove
      </button>
      {state && !state.ok && <span role="alert"> {state.message}</span>}
    </form>
  );
}

export function PriceOverrides({ overrides, models }: { overrides: PriceRow[]; models: ModelRow[] }) {
  const [state, save, pending] = useActionState(setModelPrice, null);
  const priced = new Set(overrides.map((o) => o.model));
  return (
    <div className="space-y-6 text-sm">
      <form action={save} aria-label="Set a model's price" className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col">
          Model id
          <input name="model" required list="ledger-models" className="w-64 rounded border border-line bg-[var(--bg)] px-2 py-1" />
        </label>
        {(
          [
            ["input", "Input $/M", true],
            ["output", "Output $/M", true],
            ["cacheRead", "Cache read $/M", false],
            ["cacheWrite", "Cache write $/M", false],
          ] as const
        ).map(([name, label, required]) => (
          <label key={name} className="flex flex-col">
            {label}
            <input name={name} required={required} inputMode="decimal" placeholder={required ? "" : "= input"} className={input} />
          </label>
        ))}
        <button type="submit" disabled={pending} className="rounded border border-line px-3 py-1 hover:bg-line/30 disabled:opacity-60">
          {pending ? "Saving…" : "Save price"}
        </button>
        <datalist id="ledger-models">
          {models.map((m) => (
            <option key={m.model} value={m.model} />
          ))}
        </datalist>
      </form>
      <Outcome state={state} />

      <table className="w-full border-collapse" aria-label="Your prices">
        <caption className="mb-1 text-left font-semibold">Your prices (dollars per million tokens)</caption>
        <thead>
          <tr className="border-b border-line text-left">
            <th className="py-1">Model</th>
            <th>Input</th>
            <th>Output</th>
            <th>Cache read</th>
            <th>Cache write</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {overrides.length === 0 && (
            <tr>
              <td colSpan={6} className="py-2 text-[var(--muted)]">
                None: every call is priced by its file or the catalogue.
              </td>
            </tr>
          )}
          {overrides.map((o) => (
            <tr key={o.model} className="border-b border-line/50">
              <td className="py-1 font-mono">{o.model}</td>
              <td>{dollars(o.input)}</td>
              <td>{dollars(o.output)}</td>
              <td>{o.cacheRead === undefined ? `${dollars(o.input)} (input)` : dollars(o.cacheRead)}</td>
              <td>{o.cacheWrite === undefined ? `${dollars(o.input)} (input)` : dollars(o.cacheWrite)}</td>
              <td>
                <RemoveButton model={o.model} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <table className="w-full border-collapse" aria-label="Models in the ledger">
        <caption className="mb-1 text-left font-semibold">Models in the ledger</caption>
        <thead>
          <tr className="border-b border-line text-left">
            <th className="py-1">Model</th>
            <th>Calls</th>
            <th>Tokens</th>
            <th>Price</th>
          </tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={m.model} className="border-b border-line/50">
              <td className="py-1 font-mono">{m.model}</td>
              <td>{n(m.calls)}</td>
              <td>{n(m.tokens)}</td>
              <td>
                {priced.has(m.model)
                  ? "yours"
                  : m.unpricedTokens > 0
                    ? `price unknown for ${n(m.unpricedTokens)} tokens`
                    : "recorded or catalogue"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
