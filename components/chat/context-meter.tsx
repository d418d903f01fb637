"use client";
/** The context meter (ui.md): tokens / window, a bar that turns amber past the compaction threshold. */
import type { MeterReading } from "@/lib/chat/context-meter";

function k(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : n.toLocaleString();
}

export function ContextMeter({ reading }: { reading: MeterReading | undefined }) {
  if (!reading) return <span className="text-xs text-muted">Context: unknown window</span>;
  const pct = Math.min(100, reading.percent);
  const label = `Context ${reading.tokens.toLocaleString()} of ${reading.contextWindow.toLocaleString()} tokens (${reading.percent.toFixed(1)}%)${reading.estimated ? ", estimated" : ""}${reading.overThreshold ? ", past the compaction threshold" : ""}`;
  const title = `${reading.estimated ? "Estimated: the last reported usage predates the latest compaction (or there is none yet). " : ""}Compaction threshold: ${reading.threshold.toLocaleString()} tokens.`;
  return (
    <div className="flex items-center gap-2 text-xs" title={title}>
      <meter
        aria-label={label}
        min={0}
        max={reading.contextWindow}
        value={Math.min(reading.tokens, reading.contextWindow)}
        className="sr-only"
      />
      <div aria-hidden="true" className="h-2 w-28 overflow-hidden rounded bg-panel ring-1 ring-[var(--border)]">
        <div className="h-full" style={{ width: `${pct}%`, background: reading.overThreshold ? "var(--color-compaction)" : "var(--color-accent)" }} />
      </div>
      <span data-testid="context-meter-text">
        {reading.estimated ? "~" : ""}
        {k(reading.tokens)} / {k(reading.contextWindow)} ({reading.percent.toFixed(0)}%)
        {reading.estimated ? " estimated" : ""}
      </span>
    </div>
  );
}
