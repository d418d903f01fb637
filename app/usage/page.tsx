import Link from "next/link";
import { UsageView } from "@/components/usage/usage-view";
import { requirePageUser } from "@/lib/auth/guard";
import { usageSeries } from "@/lib/db";
import { BUCKETS, type Bucket, STACKS, type StackBy } from "@/lib/usage/series";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A local day (YYYY-MM-DD) as the instant it starts, shifted by `days`; undefined when not a day. */
function dayStart(value: string | undefined, days = 0): Date | undefined {
  if (!value || !DAY.test(value)) return undefined;
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  const at = new Date(y, m - 1, d + days);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

function Choice(props: { label: string; name: string; value: string; options: readonly string[] }) {
  return (
    <label className="flex flex-col">
      {props.label}
      <select name={props.name} defaultValue={props.value} className="rounded border border-line px-2 py-1">
        {props.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * "Usage": spend and tokens by day, week or month, stacked by model, project or agent, over a
 * date range (docs/usage.md "Usage page"). The sums come from the ledger in one statement; the
 * chart and the table are drawn by the client from them.
 */
export default async function UsagePage({ searchParams }: { searchParams: Promise<Search> }) {
  await requirePageUser("/usage");
  const params = await searchParams;
  const bucket = (BUCKETS as readonly string[]).includes(one(params.by) ?? "") ? (one(params.by) as Bucket) : "day";
  const stack = (STACKS as readonly string[]).includes(one(params.stack) ?? "") ? (one(params.stack) as StackBy) : "model";
  const from = one(params.from);
  const to = one(params.to);
  const cells = await usageSeries({ bucket, stack, since: dayStart(from), until: dayStart(to, 1) });
  return (
    <div className="mx-auto max-w-6xl p-4">
      <div className="mb-3 flex items-baseline gap-4">
        <h1 className="text-lg font-semibold">Usage</h1>
        <Link href="/usage/prices" className="text-sm underline">
          Prices
        </Link>
      </div>
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3 text-sm" aria-label="Usage filters">
        <label className="flex flex-col">
          From
          <input type="date" name="from" defaultValue={from && DAY.test(from) ? from : ""} className="rounded border border-line px-2 py-1" />
        </label>
        <label className="flex flex-col">
          To
          <input type="date" name="to" defaultValue={to && DAY.test(to) ? to : ""} className="rounded border border-line px-2 py-1" />
        </label>
        <Choice label="By" name="by" value={bucket} options={BUCKETS} />
        <Choice label="Stacked by" name="stack" value={stack} options={STACKS} />
        <button type="submit" className="rounded border border-line px-3 py-1 hover:bg-line/30">
          Show
        </button>
      </form>
      <UsageView cells={cells} groupLabel={stack} />
    </div>
  );
}
