import Link from "next/link";
import { PriceOverrides } from "@/components/usage/price-overrides";
import { requirePageUser } from "@/lib/auth/guard";
import { listPriceOverrides, pricedModels } from "@/lib/db";

export const dynamic = "force-dynamic";

/**
 * "Prices": the user's own price per model (docs/usage.md "Prices"). They apply to every model
 * call whose file records no cost, past and future; a recorded cost always wins.
 */
export default async function PricesPage() {
  await requirePageUser("/usage/prices");
  const [overrides, models] = await Promise.all([listPriceOverrides(), pricedModels()]);
  return (
    <div className="mx-auto max-w-4xl p-4">
      <p className="mb-2 text-sm">
        <Link href="/usage" className="underline">
          ← Usage
        </Link>
      </p>
      <h1 className="mb-2 text-lg font-semibold">Prices</h1>
      <p className="mb-4 text-sm text-[var(--muted)]">
        Your own prices, in dollars per million tokens, for models the price catalogue does not know or prices differently.
        They apply to every call of the model whose session file records no cost, past and future. A cost the file records
        (pi and opencode record one) always wins over your price and the catalogue.
      </p>
      <PriceOverrides
        overrides={overrides.map(({ updatedAt, ...o }) => ({ ...o, updatedAt: updatedAt.toISOString() }))}
        models={models}
      />
    </div>
  );
}
