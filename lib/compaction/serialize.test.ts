import { describe, expect, it } from "vitest";
import { serializeConversation } from "@/lib/compaction/serialize";
import { assistant, call, img, toolResult, user, words } from "@/test/compaction-helpers";

describe("serializeConversation (session-engine.md §9)", () => {
  it("matches the spec example", () => {
    const out = serializeConversation([
      user("Rename the config loader"),
      assistant("Opening it", {
        thinking: "Need the current file first",
        calls: [call("1", "read", { path: "lib/config.ts" }), call("2", "bash", { command: "git status", timeout: 30 })],
      }),
      toolResult("1", "export function loadConfig() {}"),
    ]);
    expect(out).toBe(
      [
        "[User]: Rename the config loader",
        "[Assistant thinking]: Need the current file first",
        "[Assistant]: Opening it",
        '[Assistant tool calls]: read(path="lib/config.ts"); bash(command="git status", timeout=30)',
        "[Tool result]: export function loadConfig() {}",
      ].join("\n\n"),
    );
  });

  it("joins user text blocks with '' and drops images; empty user text gives no part", () => {
    const out = serializeConversation([
      user([{ type: "text", text: "a" }, img(), { type: "text", text: "b" }]),
      user([img()]),
      user(""),
      user("c"),
    ]);
    expect(out).toBe("[User]: ab\n\n[User]: c");
  });

  it("joins several thinking/text blocks with newlines, in thinking → text → calls order", () => {
    const m = assistant("", { calls: [call("1", "ls", {})] });
    m.content.unshift({ type: "text", text: "t2" }, { type: "thinking", thinking: "k2" });
    m.content.unshift({ type: "text", text: "t1" }, { type: "thinking", thinking: "k1" });
    expect(serializeConversation([m])).toBe(
      "[Assistant thinking]: k1\nk2\n\n[Assistant]: t1\nt2\n\n[Assistant tool calls]: ls()",
    );
  });

  it("JSON-encodes argument values", () => {
    const m = assistant("", { calls: [call("1", "edit", { path: "a", edits: [{ old: "x", new: "y" }], dry: false })] });
    expect(serializeConversation([m])).toBe(
      '[Assistant tool calls]: edit(path="a", edits=[{"old":"x","new":"y"}], dry=false)',
    );
  });

  it("never truncates tool results and skips empty ones", () => {
    const long = words(5000);
    expect(serializeConversation([toolResult("1", long), toolResult("2", [img()])])).toBe(`[Tool result]: ${long}`);
  });

  it("returns '' for no messages", () => {
    expect(serializeConversation([])).toBe("");
  });
});
