"use client";
/**
 * The context meter (ui.md): the context's tokens against the window of the session's own model
 * ("136k of claude-opus-4-6's 200k (68%)"; the model the user picked instead, when they did),
 * a bar that turns amber past the compaction threshold, a line when the next turn uses another
 * model, the warning "Sending will first compact: 181k > 167k" before a message that will, and
 * "How is this counted?": where each number comes from and why the provider's count and our
 * estimate differ.
 */
import type { SendCompaction, SendPrune } from "@/lib/chat-protocol/compaction-forecast";
import { type MeterReading, meterText, meterTokens, meterWindowText } from "@/lib/chat-protocol/context-meter";
import type { MeterBasis } from "@/lib/types/session-page";
import { groupDigits } from "@/lib/text/group-digits";
import type { NextTurnModel } from "@/lib/types/session-page";

export interface MeterProps {
  reading: MeterReading | undefined;
  basis?: MeterBasis;
  /** The model the next turn uses (named when it is not the one measured against). */
  next?: NextTurnModel;
  /** Set when the next message will first compact. */
  compacts?: SendCompaction | null;
  /** Set when the reading is past the threshold but pruning old tool outputs brings the send under it (never with `compacts`: nextSendPrunes). */
  prunes?: SendPrune | null;
  reserveTokens?: number;
}

const modelName = (m: { id: string; offline: boolean }) => (m.offline ? "the offline model" : m.id);

/** "Next turn: the offline model (128k window) — no API key for anthropic" when it differs from the measured model. */
export function nextTurnNote(reading: MeterReading | undefined, next: NextTurnModel | undefined): string | null {
  const measured = reading?.model;
  if (!next || !measured || (measured.id === next.id && measured.offline === next.offline)) return null;
  const why = next.session && !next.session.available && !next.picked ? ` — no API key for ${next.session.provider}` : "";
  return `Next turn: ${modelName(next)} (${meterTokens(next.contextWindow)} window${next.windowAssumed ? ", assumed" : ""})${why}`;
}

/** Where the meter's numbers come from, in sentences (the "How is this counted?" panel). */
export function meterExplanation(r: MeterReading, basis: MeterBasis | undefined, reserveTokens: number | undefined): string[] {
  const lines: string[] = [];
  if (r.estimated) {
    lines.push(`~${groupDigits(r.tokens)} tokens: our estimate of the stored messages (about 4 characters a token). No reply since the latest compaction has reported its usage yet.`);
  } else {
    const by = basis?.reportedBy ? ` by ${basis.reportedBy}` : "";
    lines.push(
      `${groupDigits(r.usageTokens)} tokens reported${by} for its last reply: everything it was sent, the system prompt and tool definitions included.`,
    );
    if (r.trailingTokens > 0) lines.push(`+ ~${groupDigits(r.trailingTokens)} tokens estimated for the messages since.`);
    const ours = basis?.estimateAll;
    if (ours !== undefined && Math.abs(ours - r.tokens) > 0.15 * Math.max(ours, r.tokens)) {
      lines.push(
        `Our own estimate of the stored messages is ~${groupDigits(ours)}: it counts about 4 characters a token and only what the session file keeps. The provider counts with its own tokenizer, and counts the system prompt and tool definitions, which Claude Code and Codex files do not store.`,
      );
    }
  }
  const windowOwner = r.model ? modelName(r.model) : "the model";
  lines.push(`Window: ${groupDigits(r.contextWindow)} tokens, ${windowOwner}'s${r.model?.windowAssumed ? " (assumed: Arbor does not know this model's window)" : ""}.`);
  if (reserveTokens !== undefined) lines.push(`Compaction runs past ${groupDigits(r.threshold)} tokens (the window less ${groupDigits(reserveTokens)} kept for the reply).`);
  return lines;
}

export function compactionWarning(c: SendCompaction): string {
  return c.reason === "overflow" ? "Sending will first compact: the last reply overflowed the context" : `Sending will first compact: ${meterTokens(c.tokens)} > ${meterTokens(c.threshold)}`;
}

/** "Old tool outputs are pruned before sending: 165k → 98k, under the 112k compaction threshold". */
export function pruneNote(p: SendPrune): string {
  return `Old tool outputs are pruned before sending: ${meterTokens(p.before)} → ${meterTokens(p.after)}, under the ${meterTokens(p.threshold)} compaction threshold`;
}

export function ContextMeter({ reading, basis, next, compacts, prunes, reserveTokens }: MeterProps) {
  if (!reading) return <span className="text-xs text-muted">Context: unknown window</span>;
  const pct = Math.min(100, reading.percent);
  const windowText = meterWindowText(reading.contextWindow, reading.model);
  const label = `Context ${groupDigits(reading.tokens)} of ${windowText} window, ${groupDigits(reading.contextWindow)} tokens (${reading.percent.toFixed(1)}%)${reading.estimated ? ", estimated" : ""}${reading.overThreshold ? ", past the compaction threshold" : ""}`;
  const note = nextTurnNote(reading, next);
  return (
    <div className="flex min-w-0 flex-col gap-0.5 text-xs">
      <div className="flex min-w-0 items-center gap-2">
        <meter aria-label={label} min={0} max={reading.contextWindow} value={Math.min(reading.tokens, reading.contextWindow)} className="sr-only" />
        <div aria-hidden="true" className="h-2 w-20 shrink-0 overflow-hidden rounded bg-panel ring-1 ring-[var(--border)] sm:w-28">
          <div className="h-full" style={{ width: `${pct}%`, background: reading.overThreshold ? "var(--color-compaction)" : "var(--color-accent)" }} />
        </div>
        <span data-testid="context-meter-text">{meterText(reading)}</span>
        <details className="relative">
          <summary aria-label="How is this counted?" title="How is this counted?" className="cursor-pointer list-none rounded-full border border-line px-1.5 text-muted">
            ?
          </summary>
          <div role="note" className="absolute right-0 bottom-6 z-20 w-80 max-w-[85vw] space-y-1 rounded border border-line bg-[var(--bg)] p-2 shadow-lg">
            {meterExplanation(reading, basis, reserveTokens).map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
        </details>
      </div>
      {note && <span data-testid="context-meter-next">{note}</span>}
      {compacts && (
        <span role="status" data-testid="context-meter-warning" className="font-medium text-amber-800 dark:text-amber-300">
          {compactionWarning(compacts)}
        </span>
      )}
      {prunes && <span data-testid="context-meter-prune">{pruneNote(prunes)}</span>}
    </div>
  );
}
