/**
 * The session page's cost (docs/usage.md "Session page"): the total with subagents rolled in,
 * and a strip with one segment per model call in time order, its width the call's share of the
 * session's own cost (a call without a price gets a minimum width). A session with more calls
 * than MAX_SEGMENTS shows runs of consecutive calls per segment, so the strip stays small (the
 * runs are grouped in the database: lib/db/usage/cost-strip.ts). Server-rendered.
 */
import { formatMicros } from "@/lib/usage/prices";
import { type CostPart, type CostSegment, sessionCostLabel } from "@/lib/usage/session-label";

/** Segments of the strip at most (runs of consecutive calls beyond: lib/db/usage/cost-strip.ts). */
export const MAX_SEGMENTS = 200;

export function SessionCost(props: { own: CostPart; subagents: CostPart & { sessions: number }; segments: CostSegment[] }) {
  const { own, subagents, segments } = props;
  if (segments.length === 0 && subagents.sessions === 0) return null;
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm text-muted" data-testid="session-cost">
      <span title={`${(own.tokens + subagents.tokens).toLocaleString("en-US")} tokens`}>{sessionCostLabel(own, subagents)}</span>
      {segments.length > 0 && (
        <ol className="flex h-2 w-40 overflow-hidden rounded bg-line/30" aria-label="Cost per model call">
          {segments.map((t, i) => (
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
