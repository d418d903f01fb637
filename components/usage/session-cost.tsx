/**
 * The session page's cost (docs/usage.md "Session page"): the total with subagents rolled in,
 * and a strip with one segment per model call in time order, its width the call's share of the
 * session's own cost (a call without a price gets a minimum width). A session with more calls
 * than MAX_SEGMENTS shows runs of consecutive calls per segment, so the strip stays small.
 * Server-rendered.
 */
import { formatMicros } from "@/lib/usage/prices";
import { type CostPart, sessionCostLabel } from "@/lib/usage/session-label";

export interface TurnCost {
  entryId: string;
  kind: string;
  model: string;
  costMicros?: number;
  tokens: number;
}

const MAX_SEGMENTS = 200;

/** Consecutive calls merged into at most MAX_SEGMENTS segments (costs and tokens summed). */
function segments(turns: readonly TurnCost[]): { key: string; kind: string; label: string; cost?: number; tokens: number }[] {
  const per = Math.ceil(turns.length / MAX_SEGMENTS);
  const out: { key: string; kind: string; label: string; cost?: number; tokens: number }[] = [];
  for (let i = 0; i < turns.length; i += per) {
    const run = turns.slice(i, i + per);
    const priced = run.filter((t) => t.costMicros !== undefined);
    const cost = priced.length > 0 ? priced.reduce((s, t) => s + (t.costMicros ?? 0), 0) : undefined;
    const first = run[0]!;
    const kind = run.every((t) => t.kind === "message") ? "message" : run.length === 1 ? first.kind : "mixed";
    const what = run.length === 1 ? `#${i + 1} ${first.kind === "message" ? "" : `${first.kind} · `}${first.model}` : `#${i + 1}–${i + run.length}`;
    out.push({ key: first.entryId, kind, label: what, ...(cost !== undefined ? { cost } : {}), tokens: run.reduce((s, t) => s + t.tokens, 0) });
  }
  return out;
}

export function SessionCost(props: { own: CostPart; subagents: CostPart & { sessions: number }; turns: TurnCost[] }) {
  const { own, subagents, turns } = props;
  if (turns.length === 0 && subagents.sessions === 0) return null;
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm text-muted" data-testid="session-cost">
      <span title={`${(own.tokens + subagents.tokens).toLocaleString("en-US")} tokens`}>{sessionCostLabel(own, subagents)}</span>
      {turns.length > 0 && (
        <ol className="flex h-2 w-40 overflow-hidden rounded bg-line/30" aria-label="Cost per model call">
          {segments(turns).map((t, i) => (
            <li
              key={t.key}
              title={`${t.label} · ${t.cost === undefined ? "price unknown" : formatMicros(t.cost)} · ${t.tokens.toLocaleString("en-US")} tokens`}
              className={t.kind === "message" ? (i % 2 ? "bg-blue-500" : "bg-blue-400") : "bg-amber-500"}
              style={{ flexGrow: t.cost ?? 0, flexBasis: t.cost === undefined ? 2 : 0, minWidth: 1 }}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
