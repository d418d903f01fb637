/**
 * GET …/inspect/messages on the real database: a long turn of a generated session (no
 * compaction, so its context holds nearly every entry) comes with a bounded window, and its
 * pages give back the whole list, on the turn's own read and after a restart; bad queries are
 * refused in words.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ModelCallRecord } from "@/lib/agent/ports";
import { importSession, loadEntries, recordModelCall } from "@/lib/db";
import { configureReadModel } from "@/lib/db/read-model";
import { clearBodiesCache } from "@/lib/inspector/bodies";
import { MESSAGE_PAGE_MAX, MESSAGE_PAGE_SIZE } from "@/lib/inspector/message-window";
import { clearTurnMessagesCache } from "@/lib/inspector/turn-messages-cache";
import type { InspectedMessage, InspectedMessagesPage, TurnView } from "@/lib/types/inspector";
import { loadPrompts } from "@/lib/llm/prompts";
import { buildSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/file/convert";
import { generateSessionJsonl } from "@/test/generators/session";
import type { SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { MODEL } from "@/test/inspector-turns";
import { countStatements } from "@/test/statements";
import { GET as inspect } from "../route";
import { GET as messages } from "./route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const get = (url: string) => new Request(`http://arbor.test${url}`);

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

let sessionId = "";
let entries: SessionEntry[] = [];
let leafId = "";

beforeAll(async () => {
  const imported = await importSession({ source: bytes(generateSessionJsonl({ seed: 11, entries: 3000 })), fileName: "long-turn.jsonl", asCopy: true });
  sessionId = imported.sessionId;
  entries = await loadEntries({ sessionId });
  leafId = entries.findLast((e) => e.type === "message" && e.message.role === "assistant")!.id;
}, 60_000);

async function turnOf(query: string): Promise<{ turn: TurnView; bytes: number }> {
  const res = await inspect(get(`/api/sessions/${sessionId}/inspect?${query}`), params(sessionId));
  expect(res.status).toBe(200);
  const body = await res.text();
  return { turn: (JSON.parse(body) as { turn: TurnView }).turn, bytes: body.length };
}

async function pageOf(query: string, offset: number, limit: number): Promise<InspectedMessagesPage> {
  const res = await messages(get(`/api/sessions/${sessionId}/inspect/messages?${query}&offset=${offset}&limit=${limit}`), params(sessionId));
  expect(res.status).toBe(200);
  return ((await res.json()) as { page: InspectedMessagesPage }).page;
}

async function allPages(query: string, total: number, limit: number): Promise<InspectedMessage[]> {
  const all: InspectedMessage[] = [];
  for (let offset = 0; offset < total; offset += limit) {
    const page = await pageOf(query, offset, limit);
    expect(page.total).toBe(total);
    all.push(...page.messages);
  }
  return all;
}

describe("a long turn's messages", () => {
  it("come as a bounded window with the exact count and totals; the pages give back the whole list", async () => {
    const query = `entry=${leafId}`;
    const { turn, bytes } = await turnOf(query);
    expect(turn.origin).toBe("reconstructed");
    expect(turn.messageCount).toBeGreaterThan(2500);
    expect(turn.messages).toHaveLength(2 * MESSAGE_PAGE_SIZE);
    expect(bytes).toBeLessThan(1024 * 1024);

    const all = await allPages(query, turn.messageCount, MESSAGE_PAGE_MAX);
    expect(all.map((m) => m.index)).toEqual(all.map((_, i) => i));
    // The window is the whole list's first and last pages, message for message.
    expect(turn.messages).toEqual([...all.slice(0, MESSAGE_PAGE_SIZE), ...all.slice(-MESSAGE_PAGE_SIZE)]);
    // The header's totals count every message, not only those sent with the turn.
    expect(turn.estimatedTokens).toBe(all.reduce((sum, m) => sum + m.tokens, 0));
    expect(turn.segments.reduce((sum, s) => sum + s.count, 0)).toBe(turn.messageCount);
    // Every message on every page links to its entry on the path.
    const ids = new Set(entries.map((e) => e.id));
    expect(all.every((m) => m.sourceEntryId !== null && ids.has(m.sourceEntryId))).toBe(true);

    // Another page size cuts the same list.
    expect(await allPages(query, turn.messageCount, 173)).toEqual(all);
    // A page is a slice of the list the turn's request built: the version check only.
    const warm = await countStatements(() => pageOf(query, MESSAGE_PAGE_SIZE, MESSAGE_PAGE_SIZE));
    expect(warm.statements).toBe(1);
    expect(warm.result.messages).toEqual(all.slice(MESSAGE_PAGE_SIZE, 2 * MESSAGE_PAGE_SIZE));
    // After a restart the page is rebuilt from the read model, the same.
    clearTurnMessagesCache();
    configureReadModel({ clear: true });
    expect((await pageOf(query, 1234, 100)).messages).toEqual(all.slice(1234, 1334));
  }, 60_000);

  it("of a recorded call are matched to their entries on every page", async () => {
    const parent = entries.find((e) => e.id === leafId)!.parentId!;
    const sent = convertToLlm(buildSessionContext(entries, parent).messages, loadPrompts());
    const call: ModelCallRecord = {
      kind: "chat",
      model: MODEL,
      request: { system: "SYS", messages: sent, maxOutputTokens: 1000 },
      response: { text: "done", stopReason: "stop" },
      startedAt: 1,
      durationMs: 1,
    };
    const { callId } = await recordModelCall({ sessionId, call });
    const query = `call=${callId}`;
    const { turn } = await turnOf(query);
    expect(turn.messageCount).toBe(sent.length);
    clearTurnMessagesCache();
    clearBodiesCache();
    const all = await allPages(query, turn.messageCount, MESSAGE_PAGE_MAX);
    expect(all.map((m) => m.message)).toEqual(sent);
    expect(all.every((m) => m.sourceEntryId !== null)).toBe(true);
    expect(turn.messages.slice(0, MESSAGE_PAGE_SIZE)).toEqual(all.slice(0, MESSAGE_PAGE_SIZE));
  }, 60_000);

  it("of the next-turn preview page like any turn", async () => {
    const { turn } = await turnOf("preview=1");
    const all = await allPages("preview=1", turn.messageCount, MESSAGE_PAGE_MAX);
    expect(all).toHaveLength(turn.messageCount);
    expect(all.at(-1)!.placeholder).toBe(true);
  }, 60_000);
});

describe("bad requests", () => {
  const status = async (query: string, id = sessionId) => {
    const res = await messages(get(`/api/sessions/${id}/inspect/messages?${query}`), params(id));
    return { status: res.status, error: ((await res.json()) as { error: string }).error };
  };

  it("are refused with a 4xx saying what is wrong", async () => {
    const entry = `entry=${leafId}`;
    expect(await status(`${entry}&offset=abc`)).toEqual({ status: 400, error: "offset must be a whole number, 0 or more" });
    expect(await status(`${entry}&offset=-5`)).toEqual({ status: 400, error: "offset must be a whole number, 0 or more" });
    expect(await status(`${entry}&limit=0`)).toEqual({ status: 400, error: `limit must be a whole number from 1 to ${MESSAGE_PAGE_MAX}` });
    expect(await status(`${entry}&limit=${MESSAGE_PAGE_MAX + 1}`)).toMatchObject({ status: 400 });
    expect(await status(`${entry}&offset=999999`)).toEqual({ status: 400, error: expect.stringMatching(/^offset 999999 is past the end of this turn: it sent \d+ messages/) });
    expect(await status("offset=0")).toEqual({ status: 400, error: "give exactly one of entry=<assistantEntryId>, call=<callId> or preview=1" });
    expect(await status("entry=nope&offset=0")).toEqual({ status: 404, error: `Entry nope not found in session ${sessionId}` });
    const user = entries.find((e) => e.type === "message" && e.message.role === "user")!;
    expect(await status(`entry=${user.id}`)).toMatchObject({ status: 422 });
    const unknownCall = crypto.randomUUID();
    expect(await status(`call=${unknownCall}`)).toEqual({ status: 404, error: `Model call ${unknownCall} not found in session ${sessionId}` });
    expect(await status("preview=1", "no-such-session")).toEqual({ status: 404, error: "Session no-such-session not found" });
  });
});
