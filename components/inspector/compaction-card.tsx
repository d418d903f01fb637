"use client";
/** One compaction's summary and fact check, as the review and the comparison show it (docs/engine.md "Arbor extensions around compaction"). */
import type { CompactionCard } from "@/lib/compaction/compaction-review";
import { scoreText } from "@/lib/compaction/fact-check";
import { CitedText } from "./cited-text";
import { FactList } from "./fact-list";
import { formatTokens } from "./format";

export function SummaryText({ card, onFocusEntry }: { card: CompactionCard; onFocusEntry?(entryId: string): void }) {
  return (
    <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-panel p-2 font-mono text-xs">
      {onFocusEntry ? <CitedText text={card.summary} onFocusEntry={onFocusEntry} /> : card.summary}
    </pre>
  );
}

/** "38 of 45 facts carried · 120 entries summarised · summary 2k (context before: 136k)". */
export function FactHeadline({ card }: { card: CompactionCard }) {
  return (
    <p className="text-xs">
      <span className="font-semibold">{scoreText(card.check)}</span>
      <span className="text-muted">
        {" "}
        · {card.check.spanEntries} entries summarised · summary {formatTokens(card.summaryTokens)} (context before: {formatTokens(card.tokensBefore)})
      </span>
    </p>
  );
}

export function CardFacts({ card, onFocusEntry, headline = true }: { card: CompactionCard; onFocusEntry(entryId: string): void; headline?: boolean }) {
  return (
    <>
      {headline ? <FactHeadline card={card} /> : null}
      {card.pinnedEntryIds?.length ? (
        <p className="text-xs">
          Carries {card.pinnedEntryIds.length} pinned {card.pinnedEntryIds.length === 1 ? "entry" : "entries"} verbatim:{" "}
          {card.pinnedEntryIds.map((id, i) => (
            <span key={id}>
              {i > 0 ? ", " : null}
              <button type="button" className="font-mono text-[var(--color-accent)] underline" onClick={() => onFocusEntry(id)}>
                {id}
              </button>
            </span>
          ))}
        </p>
      ) : null}
      <FactList check={card.check} onFocusEntry={onFocusEntry} label={`Fact check of ${card.id}`} />
    </>
  );
}

