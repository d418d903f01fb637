/** The inspector's JSON routes on the real database: contracts, validation and 404s. */
import { describe, expect, it } from "vitest";
import type { ModelCallRecord } from "@/lib/agent/ports";
import { appendEntries, createSession, recordModelCall } from "@/lib/db";
import type { ModelCallDetail, ModelCallSummary, TurnView } from "@/lib/types/inspector";
import { assistantMsg, userMsg } from "@/test/session-factories";
import { useTestDatabase } from "@/test/db";
import { GET as getCall } from "./[callId]/route";
import { GET as listCalls } from "./route";
import { GET as inspect } from "../inspect/route";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });
const req = (url: string) => new Request(`http://localhost${url}`);

async function sessionWithCall() {
  const { id } = await createSession({});
  const question = userMsg("hello", { timestamp: 10 });
  const answer = assistantMsg("hi there", { timestamp: 20, usage: { input: 12, output: 3 } });
  const call: ModelCallRecord = {
    kind: "chat",
    model: { provider: "offline", id: "offline", ref: "offline/offline", contextWindow: 128_000, maxOutputTokens: 4096, reasoning: false },
    request: { system: "SYS", messages: [question], maxOutputTokens: 4096 },
    response: { message: answer, usage: answer.usage, stopReason: "stop" },
    startedAt: 10,
    durationMs: 10,
  };
  const { callId } = await recordModelCall({ sessionId: id, call });
  const { entries } = await appendEntries({
    sessionId: id,
    expectedLeafId: null,
    entries: [
      { type: "message", message: question },
      { type: "message", message: answer },
    ],
  });
  return { id, callId, userId: entries[0]!.id, assistantId: entries[1]!.id };
}

describe("GET /api/sessions/[id]/calls and /calls/[callId]", () => {
  it("lists the calls and returns one in full", async () => {
    const s = await sessionWithCall();
    const list = await listCalls(req(`/api/sessions/${s.id}/calls`), params({ id: s.id }));
    expect(list.status).toBe(200);
    const { calls } = (await list.json()) as { calls: ModelCallSummary[] };
    expect(calls).toEqual([expect.objectContaining({ id: s.callId, kind: "chat", entryId: s.assistantId, messageCount: 1, promptTokens: 12 })]);

    const one = await getCall(req(`/api/sessions/${s.id}/calls/${s.callId}`), params({ id: s.id, callId: s.callId }));
    expect(one.status).toBe(200);
    const { call } = (await one.json()) as { call: ModelCallDetail };
    expect(call.request.system).toBe("SYS");
    expect(call.request.messages).toEqual([expect.objectContaining({ sourceEntryId: s.userId, source: "entry" })]);
    expect(call.response.message?.content).toEqual([{ type: "text", text: "hi there" }]);
  });

  it("answers 404 JSON for unknown ids and 400 for malformed ones", async () => {
    const s = await sessionWithCall();
    const unknown = crypto.randomUUID();
    const missing = await getCall(req("/"), params({ id: s.id, callId: unknown }));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: "not_found", error: `Model call ${unknown} not found in session ${s.id}` });
    expect((await getCall(req("/"), params({ id: "nope", callId: unknown }))).status).toBe(404);
    expect((await listCalls(req("/"), params({ id: "nope" }))).status).toBe(404);
    const malformed = await getCall(req("/"), params({ id: s.id, callId: "42" }));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ code: "invalid_input", error: "call id must be a UUID" });
  });
});

describe("GET /api/sessions/[id]/inspect", () => {
  it("returns the turn of an entry, of a call, and the next-turn preview", async () => {
    const s = await sessionWithCall();
    const byEntry = await inspect(req(`/api/sessions/${s.id}/inspect?entry=${s.assistantId}`), params({ id: s.id }));
    expect(byEntry.status).toBe(200);
    expect(((await byEntry.json()) as { turn: TurnView }).turn).toMatchObject({ origin: "recorded", callId: s.callId });

    const byCall = await inspect(req(`/api/sessions/${s.id}/inspect?call=${s.callId}`), params({ id: s.id }));
    expect(((await byCall.json()) as { turn: TurnView }).turn.entryId).toBe(s.assistantId);

    const preview = await inspect(req(`/api/sessions/${s.id}/inspect?preview=1`), params({ id: s.id }));
    expect(preview.status).toBe(200);
    const turn = ((await preview.json()) as { turn: TurnView }).turn;
    expect(turn.origin).toBe("preview");
    expect(turn.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("validates the query and tells non-assistant entries apart", async () => {
    const s = await sessionWithCall();
    const none = await inspect(req(`/api/sessions/${s.id}/inspect`), params({ id: s.id }));
    expect(none.status).toBe(400);
    const both = await inspect(req(`/api/sessions/${s.id}/inspect?preview=1&entry=x`), params({ id: s.id }));
    expect(both.status).toBe(400);
    const user = await inspect(req(`/api/sessions/${s.id}/inspect?entry=${s.userId}`), params({ id: s.id }));
    expect(user.status).toBe(422);
    const gone = await inspect(req(`/api/sessions/${s.id}/inspect?entry=nope`), params({ id: s.id }));
    expect(gone.status).toBe(404);
    expect((await inspect(req("/x?preview=1"), params({ id: "nope" }))).status).toBe(404);
  });
});
