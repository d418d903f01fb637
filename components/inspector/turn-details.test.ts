/**
 * The Context tab's markup for a compacted, recorded turn, rendered on the server (no DOM here):
 * the note, the token bar as an image with its words, the markers and the diff headings.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import { RECONSTRUCTED_NOTE, reconstructTurn } from "@/lib/inspector/reconstruct";
import { buildTurnView } from "@/lib/inspector/turn-view";
import { assistantEntry, compactionEntry, userEntry } from "@/test/session-factories";
import { TurnDetails } from "./context-view";

const entries = [
  userEntry("1", null, "first"),
  assistantEntry("2", "1", "response1"),
  userEntry("3", "2", "second"),
  assistantEntry("4", "3", "response2"),
  compactionEntry("5", "4", "SUMMARY", "3"),
  userEntry("6", "5", "third"),
  assistantEntry("7", "6", "response3", { usage: { input: 1234, output: 5 } }),
];

function view(entryId: string) {
  const turn = reconstructTurn(entries, entryId, TEST_PROMPTS)!;
  return {
    turn,
    refs: buildTurnView(input(turn), entries).messages,
  };
}

function input(turn: NonNullable<ReturnType<typeof reconstructTurn>>) {
  return {
    origin: "reconstructed" as const,
    sessionId: "s",
    callId: null,
    kind: "chat" as const,
    entryId: turn.entryId,
    model: turn.model,
    contextWindow: 200_000,
    system: null,
    tools: null,
    settings: {},
    messages: turn.messages,
    providerPromptTokens: turn.providerPromptTokens,
    response: { stopReason: turn.assistant.stopReason },
    startedAt: null,
    durationMs: null,
    pending: null,
    notes: [RECONSTRUCTED_NOTE],
  };
}

describe("TurnDetails", () => {
  it("renders the note, the bar, the markers and the diff", () => {
    const prev = view("4");
    const cur = view("7");
    const turn = buildTurnView(input(cur.turn), entries, { origin: "reconstructed", callId: null, entryId: "4", refs: prev.refs });
    const html = renderToStaticMarkup(createElement(TurnDetails, { turn, onFocusEntry: () => {} }));
    expect(html).toContain(`role="note"`);
    expect(html).toContain(RECONSTRUCTED_NOTE);
    expect(html).toMatch(/role="img" aria-label="Context window: Summaries \d+ tokens?, Kept history \d+ tokens, New message \d+ tokens?; \d+ of 200,000 tokens in the context window \(estimated\)"/);
    expect(html).toContain("Provider-reported prompt tokens: 1,234 · our estimate: ");
    expect(html).toContain(">Compaction summary<");
    expect(html).toContain(">kept from 3<");
    expect(html).toContain('aria-label="Show entry 3 on the canvas"');
    expect(html).toContain("Added (3)");
    expect(html).toContain("Removed (2) — compacted away or pruned");
    expect(html).toContain("Changed (0)");
    // The summary comes first, then the kept messages.
    expect(html.indexOf("Compaction summary")).toBeLessThan(html.indexOf("kept from 3"));
  });
});
