/**
 * The incremental prompt (lib/llm/provider-prompt.ts, lib/session/tree/branch-memo.ts: each message
 * converted once and reused across turns) never sends a stale message: through the real chat
 * route, the read model and the fake model server, every request's messages equal the stored
 * path at that moment — after a branch switch and back, and after a prune rewrote a tool result
 * that earlier turns had already sent (and cached) in full, and once a tool call made in a turn
 * has its result (the previous call, whose prompt is reused for the unchanged prefix, ended
 * before it).
 */
import { describe, expect, it } from "vitest";
import { appendEntries, findSessionMeta } from "@/lib/db";
import { assistantMsg, toolResultMsg, userMsg } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";
import { INTERRUPTED_TOOL_RESULT } from "@/lib/llm/provider-prompt";
import { useTestDatabase } from "@/test/db";
import type { FakeRequest } from "@/test/fake-llm-server";
import { messageText } from "@/test/fake-llm-steps";
import { MODEL_ID, navigate, newSession, postChat, readAll, seedHistory, storedPath, useHarness } from "@/test/chat-harness";

useTestDatabase();

const h = useHarness({ contextWindow: 1_000_000 });

/** "role: text" of what a request sent, system prompt left out. */
function sent(req: FakeRequest | undefined): string[] {
  return (req?.messages ?? []).filter((m) => m.role !== "system").map((m) => `${m.role}: ${messageText(m.content)}`);
}

/** What the stored path sends up to the user message `text` (the turn's own, the last one). */
function expected(path: SessionEntry[], text: string): string[] {
  const at = path.findLastIndex((e) => e.type === "message" && e.message.role === "user" && e.message.content === text);
  const out: string[] = [];
  for (const e of path.slice(0, at + 1)) {
    if (e.type !== "message") continue;
    const m = e.message;
    if (m.role === "user") out.push(`user: ${typeof m.content === "string" ? m.content : m.content.map((b) => (b.type === "text" ? b.text : "")).join("")}`);
    else if (m.role === "assistant") out.push(`assistant: ${m.content.map((b) => (b.type === "text" ? b.text : "")).join("")}`);
    else if (m.role === "toolResult") out.push(`tool: ${m.content.map((b) => (b.type === "text" ? b.text : "")).join("\n")}`);
  }
  return out;
}

/** One turn; what it sent must equal the stored path (as it is after the turn: a prune is stored first). */
async function turn(sessionId: string, text: string): Promise<string[]> {
  await readAll(await postChat(sessionId, text));
  const got = sent(h.fake.requests.at(-1));
  expect(got).toEqual(expected(await storedPath(sessionId), text));
  expect(got.at(-1)).toBe(`user: ${text}`);
  return got;
}

const leafOf = async (id: string) => (await findSessionMeta({ id }))?.leafId ?? null;

describe("the incremental prompt sends what is stored, turn after turn", () => {
  it("after a branch switch and back", async () => {
    const s = await newSession();
    const [, a0] = await seedHistory(s.id, 3, 60);
    const main = await turn(s.id, "on the main branch");
    expect(main).toHaveLength(7);
    const mainLeaf = await leafOf(s.id);

    await readAll(await navigate(s.id, { targetId: a0!.id, summarize: false }));
    const side = await turn(s.id, "on the side branch");
    expect(side).toHaveLength(3);
    expect(side.join("\n")).not.toContain("on the main branch");

    await readAll(await navigate(s.id, { targetId: mainLeaf, summarize: false }));
    const back = await turn(s.id, "back on main");
    expect(back).toHaveLength(9);
    expect(back.slice(0, 7)).toEqual(main);
    expect(back.join("\n")).not.toContain("on the side branch");
  });

  it("after a prune rewrote a result the earlier turns sent in full", async () => {
    const s = await newSession();
    const meta = { provider: "openai-compatible", model: MODEL_ID, api: "openai-completions", usage: { input: 100, output: 100 } };
    const call = (id: string) => ({ type: "toolCall" as const, id, name: "bash", arguments: { command: "cat big.log" } });
    const oldOutput = "old log line\n".repeat(8_000); // ~26k tokens
    const first = await appendEntries({
      sessionId: s.id,
      expectedLeafId: null,
      entries: [
        { type: "message", message: userMsg("show the old log") },
        { type: "message", message: assistantMsg("", { ...meta, stopReason: "toolUse", toolCalls: [call("c0")] }) },
        { type: "message", message: toolResultMsg("c0", oldOutput, { toolName: "bash" }) },
        { type: "message", message: assistantMsg("It is long.", meta) },
      ],
    });
    const one = await turn(s.id, "turn one");
    expect(one[2]).toBe(`tool: ${oldOutput}`);
    expect(first.entries).toHaveLength(4);

    // Another writer adds a newer, bigger result: the old one falls out of the protected window.
    await appendEntries({
      sessionId: s.id,
      expectedLeafId: await leafOf(s.id),
      entries: [
        { type: "message", message: userMsg("show the new log") },
        { type: "message", message: assistantMsg("", { ...meta, stopReason: "toolUse", toolCalls: [call("c1")] }) },
        { type: "message", message: toolResultMsg("c1", "new log line\n".repeat(16_000), { toolName: "bash" }) },
        { type: "message", message: assistantMsg("Even longer.", meta) },
      ],
    });
    const two = await turn(s.id, "turn two");
    expect(two[2]).toMatch(/^tool: \[Output truncated - \d+ tokens\]$/);
    expect(two.join("\n")).toContain("new log line");
  });

  it("a tool call's result reaches the turn's next model call and the next turn, never the interrupted stand-in", async () => {
    const s = await newSession();
    h.fake.script({ toolCalls: [{ name: "ls", arguments: { path: "." } }] }, { text: "Listed." });
    await readAll(await postChat(s.id, "list the files"));
    const [asked, answered] = h.fake.requests.slice(-2).map(sent);
    expect(asked?.at(-1)).toBe("user: list the files");
    expect(answered?.at(-1)).toMatch(/^tool: /);
    expect(answered?.at(-1)).not.toContain(INTERRUPTED_TOOL_RESULT);
    const next = await turn(s.id, "and now?");
    expect(next).toContain(answered?.at(-1));
    expect(next.join("\n")).not.toContain(INTERRUPTED_TOOL_RESULT);
  });
});
