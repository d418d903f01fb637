/**
 * The message list of a long turn, rendered on the server (no DOM, no request): the count, the
 * first and last pages the turn carries, and between them the row that loads the rest.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import { windowTurn } from "@/lib/inspector/message-window";
import { reconstructTurn } from "@/lib/inspector/reconstruct";
import { buildTurnView } from "@/lib/inspector/turn-view";
import type { SessionEntry } from "@/lib/session/types";
import { assistantEntry, userEntry } from "@/test/session-factories";
import { MessageList } from "./message-list";

function longTurn(pairs: number) {
  const entries: SessionEntry[] = [];
  for (let i = 0; i < pairs; i++) {
    entries.push(userEntry(`u${i}`, i === 0 ? null : `a${i - 1}`, `question number ${i}`));
    entries.push(assistantEntry(`a${i}`, `u${i}`, `answer number ${i}`));
  }
  const turn = reconstructTurn(entries, `a${pairs - 1}`, TEST_PROMPTS)!;
  const base = { origin: "reconstructed", sessionId: "s", callId: null, kind: "chat", entryId: turn.entryId, model: turn.model } as const;
  const rest = { contextWindow: null, system: null, tools: null, settings: {}, providerPromptTokens: null, response: null, startedAt: null, durationMs: null, pending: null, notes: [] };
  return buildTurnView({ ...base, ...rest, messages: turn.messages }, entries);
}

const render = (turn: ReturnType<typeof longTurn>) =>
  renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(MessageList, { turn, onFocusEntry: () => {}, source: { sessionId: "s", target: { kind: "entry", entryId: turn.entryId! } } }),
    ),
  );

describe("MessageList of a long turn", () => {
  it("says how many messages were sent, shows the first and last pages and offers the rest", () => {
    const full = longTurn(1500); // 2,999 messages
    const html = render(windowTurn(full));
    expect(html).toContain("2,999 messages sent; the first and the last are shown, the rest load as you scroll.");
    expect(html).toContain("question number 0");
    expect(html).toContain('aria-label="Show entry a99 on the canvas"'); // message 200
    expect(html).not.toContain("question number 100<"); // message 201: not sent yet
    expect(html).toContain("2,599 more messages (201–2,799)");
    expect(html).toContain(">Show more</button>");
    expect(html).toContain('aria-label="Show entry u1499 on the canvas"'); // the last message
    expect(html.indexOf("Show more")).toBeLessThan(html.indexOf("u1499"));
  });

  it("shows a turn it carries whole as one list, drawing the rows in view (no count line, no Show more)", () => {
    const html = render(longTurn(100));
    expect(html).not.toContain("messages sent;");
    expect(html).not.toContain("Show more");
    expect(html).toContain("Messages sent (199)");
    // 199 rows: only the first screenful is in the page; the list's height holds them all.
    const rows = html.match(/<li /g)?.length ?? 0;
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(60);
    expect(html).toContain("question number 0");
    expect(html).not.toContain("question number 99<");
  });

  it("shows a short turn whole", () => {
    const html = render(longTurn(10));
    expect(html.match(/<li /g)).toHaveLength(19);
  });
});
