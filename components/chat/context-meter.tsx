"use client";
/**
 * The context meter (ui.md): tokens of the window of the model the next turn uses, named
 * ("181k of claude-opus-4-5's 200k (91%)"), a bar that turns amber past the compaction threshold.
 */
import { type MeterReading, meterText, meterWindowText } from "@/lib/chat-protocol/context-meter";
import { groupDigits } from "@/lib/text/group-digits";

export function ContextMeter({ reading }: { reading: MeterReading | undefined }) {
  if (!reading) return <span className="text-xs text-muted">Context: unknown window</span>;
  const pct = Math.min(100, reading.percent);
  const windowText = meterWindowText(reading.contextWindow, reading.model);
  const label = `Context ${groupDigits(reading.tokens)} of ${windowText} window, ${groupDigits(reading.contextWindow)} tokens (${reading.percent.toFixed(1)}%)${reading.estimated ? ", estimated" : ""}${reading.overThreshold ? ", past the compaction threshold" : ""}`;
  const assumed = !reading.model || reading.model.windowAssumed;
  const title = [
    reading.estimated ? "Estimated: the last reported usage predates the latest compaction (or there is none yet)." : "",
    reading.model ? `Measured against the window of ${reading.model.offline ? "the offline model" : reading.model.id}, the model the next turn uses.` : "",
    assumed ? "Arbor does not know this model's window, so it assumes the default." : "",
    `Compaction threshold: ${groupDigits(reading.threshold)} tokens.`,
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <div className="flex min-w-0 items-center gap-2 text-xs" title={title}>
      <meter aria-label={label} min={0} max={reading.contextWindow} value={Math.min(reading.tokens, reading.contextWindow)} className="sr-only" />
      <div aria-hidden="true" className="h-2 w-20 shrink-0 overflow-hidden rounded bg-panel ring-1 ring-[var(--border)] sm:w-28">
        <div className="h-full" style={{ width: `${pct}%`, background: reading.overThreshold ? "var(--color-compaction)" : "var(--color-accent)" }} />
      </div>
      <span data-testid="context-meter-text">{meterText(reading)}</span>
    </div>
  );
}
