"use client";
/**
 * The chat's navigation bar (ui.md "Chat"): jump to the start, to turn N, to the selected entry or
 * to the newest message, step through the search's matches on this branch (each one scrolled to and
 * highlighted), and copy the conversation as Markdown.
 */
import { useState } from "react";
import { CopyButton } from "./messages/copy-button";
import type { ChatWindowState } from "./use-chat-window";

const button = "rounded border border-line px-1.5 py-0.5 disabled:opacity-50";

export function ChatNav({
  nav,
  rows,
  selectedEntryId,
  matches,
  offPathMatches,
  onSelect,
  copyAll,
  turnsBefore = 0,
}: {
  nav: ChatWindowState;
  rows: number;
  /** Prompts before the chat's first row (a large session's page while its path streams in): turns are numbered after them. */
  turnsBefore?: number;
  selectedEntryId: string | null;
  /** Plan rows of the search's matches on this branch, in order (null: no search). */
  matches: number[] | null;
  /** Matches that lie on other branches (not in this chat). */
  offPathMatches: number;
  onSelect(rowIndex: number): void;
  copyAll(): Promise<string>;
}) {
  const [turn, setTurn] = useState("");
  const [match, setMatch] = useState(-1);
  const [matchesOf, setMatchesOf] = useState(matches);
  if (matchesOf !== matches) {
    setMatchesOf(matches);
    setMatch(-1);
  }
  const turns = nav.turns.length;
  const first = turnsBefore + 1;
  const last = turnsBefore + turns;
  const goTurn = () => {
    const n = Number.parseInt(turn, 10);
    if (n >= first && n <= last) nav.jumpToRow(nav.turns[n - first]!, { flash: true });
  };
  const step = (delta: number) => {
    if (!matches?.length) return;
    const next = (match + delta + matches.length) % matches.length;
    setMatch(next);
    onSelect(matches[next]!);
    nav.jumpToRow(matches[next]!, { flash: true });
  };
  return (
    <nav aria-label="Chat navigation" className="flex flex-wrap items-center gap-1.5 border-b border-line px-3 py-1 text-xs">
      <button type="button" className={button} disabled={rows === 0} onClick={() => nav.jumpToRow(0, { flash: true })} aria-label="Jump to the start of the chat">
        Start
      </button>
      <form
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          goTurn();
        }}
      >
        <label className="flex items-center gap-1">
          <span className="text-muted">Turn</span>
          <input
            type="number"
            min={first}
            max={Math.max(first, last)}
            value={turn}
            onChange={(e) => setTurn(e.target.value)}
            aria-label={`Turn number (${first} to ${last})`}
            placeholder={`${first}–${last}`}
            className="w-16 rounded border border-line bg-[var(--bg)] px-1 py-0.5"
          />
        </label>
        <button type="submit" className={button} disabled={turns === 0} aria-label="Jump to the turn">
          Go
        </button>
      </form>
      <button
        type="button"
        className={button}
        disabled={!selectedEntryId}
        onClick={() => selectedEntryId && nav.jumpTo(selectedEntryId, { flash: true })}
        aria-label="Jump to the selected entry"
      >
        Selected
      </button>
      <button type="button" className={button} disabled={nav.following && !nav.jumping} onClick={nav.showLatest} aria-label="Jump to the newest message">
        Latest
      </button>
      {matches && (
        <fieldset className="flex items-center gap-1" aria-label="Search matches in the chat">
          <button type="button" className={button} disabled={matches.length === 0} onClick={() => step(-1)} aria-label="Previous match">
            ‹
          </button>
          <span aria-live="polite">
            {matches.length === 0
              ? "No matches on this branch"
              : `${match >= 0 ? `Match ${match + 1} of ${matches.length}` : `${matches.length} ${matches.length === 1 ? "match" : "matches"}`} on this branch`}
            {offPathMatches > 0 ? ` (${offPathMatches} on other branches)` : ""}
          </span>
          <button type="button" className={button} disabled={matches.length === 0} onClick={() => step(1)} aria-label="Next match">
            ›
          </button>
        </fieldset>
      )}
      <span className="flex-1" />
      <CopyButton text={copyAll} label="Copy as Markdown" shown="Copy as Markdown" />
    </nav>
  );
}
