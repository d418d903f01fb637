/**
 * The session page's cost (docs/usage.md "Session page"): the total with subagents rolled in,
 * and a strip with one segment per model call in time order, its width the call's share of the
 * session's own cost (a call without a price gets a hatched minimum width). Server-rendered.
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

export function SessionCost(props: { own: CostPart; subagents: CostPart & { sessions: number }; turns: TurnCost[] }) {
  const { own, subagents, turns } = props;
  if (turns.length === 0 && subagents.sessions === 0) return null;
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm text-muted" data-testid="session-cost">
      <span title={`${(own.tokens + subagents.tokens).toLocaleString("en-US")} tokens`}>{sessionCostLabel(own, subagents)}</span>
      {turns.length > 0 && (
        <ol className="flex h-2 w-40 overflow-hidden rounded bg-line/30" aria-label="Cost per model call">
          {turns.map((t, i) => (
            <li
              key={t.entryId}
              title={`#${i + 1} ${t.kind === "message" ? "" : `${t.kind} · `}${t.model} · ${t.costMicros === undefined ? "price unknown" : formatMicros(t.costMicros)} · ${t.tokens.toLocaleString("en-US")} tokens`}
              className={t.kind === "message" ? (i % 2 ? "bg-blue-500" : "bg-blue-400") : "bg-amber-500"}
              style={{ flexGrow: t.costMicros ?? 0, flexBasis: t.costMicros === undefined ? 2 : 0, minWidth: 1 }}
              data-cost={t.costMicros ?? ""}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
