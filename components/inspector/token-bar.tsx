"use client";
/**
 * The context-window bar of one turn: segments by kind (system prompt, summaries, kept history,
 * tool results, new message), as an image with a label that lists every segment's tokens, plus
 * a legend in words, and the provider-reported prompt tokens beside our estimate.
 */
import type { TurnView } from "@/lib/types/inspector";
import { formatNumber, formatTokens, SEGMENT_COLORS, segmentWidths, tokenBarLabel } from "./format";

/**
 * Why the provider's count and ours differ, where they do (by more than 15%): the provider counts
 * the whole request with its own tokenizer; our estimate counts the messages listed here at about
 * 4 characters a token, and a reconstructed turn lacks what the file did not store.
 */
export function countsNote(provider: number | null, estimate: number, origin: TurnView["origin"]): string | null {
  if (provider === null || provider <= 0 || Math.abs(provider - estimate) <= 0.15 * Math.max(provider, estimate)) return null;
  const missing = origin === "reconstructed" ? " The session file did not keep everything the agent sent (see the note above), so those parts are not in our count." : "";
  return `Why they differ: the provider counts everything it was sent (system prompt, tool definitions, cached content, images) with its own tokenizer; our estimate counts the messages listed here at about 4 characters a token.${missing}`;
}

export function TokenBar({ turn }: { turn: TurnView }) {
  const widths = segmentWidths(turn.segments, turn.estimatedTokens, turn.contextWindow);
  return (
    <div className="space-y-1">
      <div
        role="img"
        aria-label={tokenBarLabel(turn.segments, turn.estimatedTokens, turn.contextWindow)}
        className="flex h-3 w-full overflow-hidden rounded border border-line bg-panel"
      >
        {turn.segments.map((s, i) => (
          <div key={s.kind} style={{ width: `${widths[i]}%`, background: SEGMENT_COLORS[s.kind] }} />
        ))}
      </div>
      <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs" aria-label="Token bar legend">
        {turn.segments.map((s) => (
          <li key={s.kind} className="flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: SEGMENT_COLORS[s.kind] }} />
            <span>
              {s.label}: {formatTokens(s.tokens)}
              {s.kind !== "system" ? ` (${s.count} ${s.count === 1 ? "message" : "messages"})` : ""}
            </span>
          </li>
        ))}
      </ul>
      <p className="text-xs">
        Provider-reported prompt tokens: {turn.providerPromptTokens === null ? "not reported" : formatNumber(turn.providerPromptTokens)}
        {" · "}our estimate: {formatNumber(turn.estimatedTokens)}
        {turn.contextWindow ? <span className="text-muted"> · context window {formatNumber(turn.contextWindow)}</span> : null}
      </p>
      {countsNote(turn.providerPromptTokens, turn.estimatedTokens, turn.origin) ? (
        <p className="text-xs text-muted">{countsNote(turn.providerPromptTokens, turn.estimatedTokens, turn.origin)}</p>
      ) : null}
    </div>
  );
}
