/**
 * The inspector's bounded window of a long turn (message-window.ts): what the browser gets
 * with the turn, and the pages it loads for the rest.
 */
import { describe, expect, it } from "vitest";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import { estimateTokens } from "@/lib/compaction/tokens";
import { reconstructTurn } from "@/lib/inspector/reconstruct";
import { buildTurnView } from "@/lib/inspector/turn-view";
import type { InspectedMessage, TurnView } from "@/lib/types/inspector";
import type { SessionEntry } from "@/lib/session/types";
import { assistantEntry, compactionEntry, userEntry } from "@/test/session-factories";
import { hiddenRange, MESSAGE_PAGE_SIZE, mergeMessages, MESSAGE_WINDOW_MAX, pageOf, pageProblem, windowMessages, windowTurn } from "./message-window";

/**
 * `pairs` user/assistant turns with texts of varied length; with `compactAfter`, a compaction
 * after that many pairs keeps from the 6th user message; ends on an assistant entry.
 */
function session(pairs: number, compactAfter?: number): SessionEntry[] {
  const entries: SessionEntry[] = [];
  let parent: string | null = null;
  const push = (e: SessionEntry) => {
    entries.push(e);
    parent = e.id;
  };
  for (let i = 0; i < pairs; i++) {
    push(userEntry(`u${i}`, parent, `question ${i} ${"x".repeat(i % 37)}`));
    push(assistantEntry(`a${i}`, parent, `answer ${i} ${"y".repeat((i * 7) % 53)}`));
    if (i + 1 === compactAfter) push(compactionEntry("c", parent, "SUMMARY", "u5"));
  }
  return entries;
}

function turnOf(entries: SessionEntry[]): TurnView {
  const last = entries.at(-1)!;
  const turn = reconstructTurn(entries, last.id, TEST_PROMPTS)!;
  return buildTurnView(
    {
      origin: "reconstructed",
      sessionId: "s",
      callId: null,
      kind: "chat",
      entryId: last.id,
      model: turn.model,
      contextWindow: null,
      system: null,
      tools: null,
      settings: {},
      messages: turn.messages,
      providerPromptTokens: null,
      response: null,
      startedAt: null,
      durationMs: null,
      pending: null,
      notes: [],
    },
    entries,
  );
}

const indices = (ms: readonly InspectedMessage[]) => ms.map((m) => m.index);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe("windowTurn", () => {
  it("sends a small turn whole, exactly as built", () => {
    const full = turnOf(session(MESSAGE_WINDOW_MAX / 2));
    expect(full.messageCount).toBe(MESSAGE_WINDOW_MAX - 1);
    expect(windowTurn(full)).toBe(full);
  });

  it("sends the first and last pages of a long turn, with exact counts and token sums", () => {
    const full = turnOf(session(700, 600));
    const n = full.messages.length;
    // The summary, u5…a599 kept, then u600…u699 (a699 is the answer itself).
    expect(n).toBe(1 + (600 - 5) * 2 + 100 * 2 - 1);
    const sent = windowTurn(full);
    expect(sent.messageCount).toBe(n);
    expect(sent.messages).toHaveLength(2 * MESSAGE_PAGE_SIZE);
    expect(indices(sent.messages)).toEqual([...range(0, MESSAGE_PAGE_SIZE), ...range(n - MESSAGE_PAGE_SIZE, n)]);
    expect(hiddenRange(sent.messages, n)).toEqual({ from: MESSAGE_PAGE_SIZE, to: n - MESSAGE_PAGE_SIZE });

    // The header's totals are the whole turn's, message by message.
    const exact = full.messages.reduce((sum, m) => sum + estimateTokens(m.message), 0);
    expect(sent.estimatedTokens).toBe(exact);
    expect(sent.segments).toEqual(full.segments);
    expect(sent.segments.reduce((sum, s) => sum + s.count, 0)).toBe(n);
    for (const m of sent.messages) expect(m.tokens).toBe(estimateTokens(m.message));

    // The compaction's markers and the source entries are those of the whole list.
    expect(sent.messages[0]!.source).toBe("compaction");
    expect(sent.messages[1]).toMatchObject({ firstKept: true, kept: true, sourceEntryId: "u5" });
    expect(sent.compaction).toEqual({ entryId: "c", firstKeptEntryId: "u5" });
    expect(sent.messages.at(-1)).toMatchObject({ sourceEntryId: "u699", kind: "new", kept: false });
  });

  it("cuts the preview's pruned entry ids to a page and keeps their count", () => {
    const full = turnOf(session(10));
    const ids = Array.from({ length: 1000 }, (_, i) => `t${i}`);
    const preview: TurnView = { ...full, pending: { pruning: { count: 1000, tokensSaved: 5000, entryIds: ids }, compaction: null } };
    const sent = windowTurn(preview);
    expect(sent.pending!.pruning).toEqual({ count: 1000, tokensSaved: 5000, entryIds: ids.slice(0, MESSAGE_PAGE_SIZE) });
    expect(sent.messages).toEqual(full.messages);
    expect(preview.pending!.pruning!.entryIds).toHaveLength(1000); // the built view is not changed
  });
});

describe("pages", () => {
  it("concatenate to exactly the whole list, in any page size", () => {
    const full = turnOf(session(700, 600)).messages;
    for (const size of [MESSAGE_PAGE_SIZE, 173, 1]) {
      const pages: InspectedMessage[] = [];
      for (let offset = 0; offset < full.length; offset += size) pages.push(...pageOf(full, offset, size));
      expect(pages).toEqual(full);
    }
  });

  it("fill the window's gap: head, pages from the gap's start, tail", () => {
    const full = turnOf(session(700, 600)).messages;
    const window = windowMessages(full);
    const loaded: InspectedMessage[] = [];
    let gap = hiddenRange(window, full.length);
    let requests = 0;
    while (gap) {
      loaded.push(...pageOf(full, gap.from, Math.min(MESSAGE_PAGE_SIZE, gap.to - gap.from)));
      requests++;
      gap = hiddenRange(mergeMessages(window, loaded), full.length);
    }
    expect(requests).toBe(Math.ceil((full.length - 2 * MESSAGE_PAGE_SIZE) / MESSAGE_PAGE_SIZE));
    expect(mergeMessages(window, loaded)).toEqual(full);
    // A page loaded twice (a refetch) still shows each message once.
    expect(mergeMessages(window, [...loaded, ...loaded.slice(0, 10)])).toEqual(full);
    // A middle page's messages keep the whole list's markers and sources.
    expect(full.slice(500, 700).every((m) => m.kept && !m.firstKept && m.sourceEntryId !== null)).toBe(true);
  });

  it("say in words what is wrong with an offset or limit", () => {
    expect(pageProblem(0, 200, 0)).toBeNull();
    expect(pageProblem(999, 200, 1000)).toBeNull();
    expect(pageProblem(1000, 200, 1000)).toBe("offset 1000 is past the end of this turn: it sent 1000 messages (offsets 0 to 999)");
    expect(pageProblem(-1, 200, 1000)).toBe("offset must be a whole number, 0 or more");
    expect(pageProblem(0, 0, 1000)).toMatch(/^limit must be a whole number from 1 to \d+$/);
    expect(pageProblem(0, 1.5, 1000)).toMatch(/^limit must be/);
  });
});
