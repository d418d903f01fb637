import { describe, expect, it } from "vitest";
import type { SessionEntry } from "@/lib/session/types";
import { buildChatItems } from "./chat-items";

let n = 0;
function e(fields: Record<string, unknown>): SessionEntry {
  n++;
  return { id: `e${n}`, parentId: n > 1 ? `e${n - 1}` : null, timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString(), ...fields } as SessionEntry;
}
const user = (text: string) => e({ type: "message", message: { role: "user", content: text, timestamp: 1 } });
const assistant = (text: string) =>
  e({
    type: "message",
    message: { role: "assistant", content: [{ type: "text", text }], provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: 1 },
  });

describe("buildChatItems (ui.md chat pane, session-engine.md §2 step 7)", () => {
  it("shows every message of the path in order, all in context without a compaction", () => {
    const path = [user("a"), assistant("b"), user("c")];
    const { items } = buildChatItems(path);
    expect(items.map((i) => i.entry.id)).toEqual(path.map((p) => p.id));
    expect(items.every((i) => i.inContext)).toBe(true);
  });

  it("marks entries before firstKeptEntryId as summarised away and keeps them visible", () => {
    const u1 = user("first");
    const a1 = assistant("one");
    const u2 = user("second");
    const a2 = assistant("two");
    const c = e({ type: "compaction", summary: "S", firstKeptEntryId: u2.id, tokensBefore: 1000 });
    const u3 = user("third");
    const { items } = buildChatItems([u1, a1, u2, a2, c, u3]);
    expect(items.map((i) => [i.entry.id, i.inContext])).toEqual([
      [u1.id, false],
      [a1.id, false],
      [u2.id, true],
      [a2.id, true],
      [c.id, true],
      [u3.id, true],
    ]);
  });

  it("treats an unknown firstKeptEntryId as keeping nothing before the compaction", () => {
    const u1 = user("x");
    const c = e({ type: "compaction", summary: "S", firstKeptEntryId: "missing", tokensBefore: 10 });
    const { items } = buildChatItems([u1, c]);
    expect(items.map((i) => i.inContext)).toEqual([false, true]);
  });

  it("skips settings entries and hidden custom messages, indexes tool results by call id", () => {
    const think = e({ type: "thinking_level_change", thinkingLevel: "high" });
    const hidden = e({ type: "custom_message", customType: "x", content: "secret", display: false });
    const call = e({
      type: "message",
      message: { role: "assistant", content: [{ type: "toolCall", id: "t1", name: "read", arguments: { path: "a.ts" } }], provider: "p", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, stopReason: "toolUse", timestamp: 1 },
    });
    const result = e({ type: "message", message: { role: "toolResult", toolCallId: "t1", toolName: "read", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 1 } });
    const { items, resultsByCallId, callsById } = buildChatItems([think, hidden, call, result]);
    expect(items.map((i) => i.entry.id)).toEqual([call.id, result.id]);
    expect(resultsByCallId.get("t1")?.content[0]).toEqual({ type: "text", text: "ok" });
    expect(callsById.get("t1")?.name).toBe("read");
  });
});
