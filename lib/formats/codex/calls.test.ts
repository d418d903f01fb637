/**
 * Codex calls and their answers (docs/formats.md "Codex CLI"): every call answered once its turn
 * moves on, newer rollouts' tool search, MCP end events and list outputs with images.
 */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "@/lib/session/context";
import type { ToolResultMessage } from "@/lib/session/types";
import { NO_RESULT_RECORDED } from "./calls";
import { countEntries } from "@/lib/formats/count";
import { generateCodexSession } from "@/test/generators/codex";
import { mapSessionText } from "@/lib/formats/map-lines";

const file = generateCodexSession({ seed: 31, turns: 3, newer: true });
const mapped = mapSessionText(file.text)!;
const results = mapped.entries.flatMap((e) => (e.type === "message" && e.message.role === "toolResult" ? [{ id: e.id, m: e.message as ToolResultMessage }] : []));
const calls = mapped.entries.flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? e.message.content.filter((p) => p.type === "toolCall") : []));

describe("Codex rollouts of 0.14x", () => {
  it("finds exactly the prompts (a <skill> message is not one), responses, calls, results and errors", () => {
    expect(countEntries(mapped.entries)).toEqual(file.expected);
  });

  it("answers every call exactly once, each result after its call", () => {
    const byCall = new Map<string, number>();
    for (const r of results) byCall.set(r.m.toolCallId, (byCall.get(r.m.toolCallId) ?? 0) + 1);
    expect(calls.map((c) => c.id).sort()).toEqual([...byCall.keys()].sort());
    expect([...byCall.values()].every((n) => n === 1)).toBe(true);
    const leaf = mapped.entries.at(-1)!;
    const ctx = buildSessionContext(mapped.entries, leaf.id).messages;
    const seen = new Set<string>();
    for (const m of ctx) {
      if (m.role === "assistant") for (const p of m.content) if (p.type === "toolCall") seen.add(p.id);
      if (m.role === "toolResult") expect(seen.has(m.toolCallId), m.toolCallId).toBe(true);
    }
  });

  it("a call the rollout never answers gets an explicit error result when its turn moves on, and a note", () => {
    const lost = calls.find((c) => c.name === "shell" && (c.arguments as { command?: string[] }).command?.[0] === "sleep")!;
    const r = results.find((x) => x.m.toolCallId === lost.id)!;
    expect(r.m).toMatchObject({ isError: true, toolName: "shell", content: [{ type: "text", text: NO_RESULT_RECORDED }] });
    expect(r.id).toMatch(/^L\d+\.r$/);
    expect(mapped.notes.map((n) => n.message)).toEqual([`call ${lost.id} (shell) has no output in the rollout: answered "no result recorded"`]);
  });

  it("an MCP call without an output item is answered by its mcp_tool_call_end result; one only in events becomes a call", () => {
    const listed = results.find((x) => x.m.toolName === "mcp__github__list_issues")!;
    expect(listed.m).toMatchObject({ isError: false, content: [{ type: "text", text: "#12 Crash on start" }] });
    const eventOnly = results.find((x) => x.m.toolName === "mcp__github__get_issue")!;
    expect(eventOnly.m).toMatchObject({ isError: true, content: [{ type: "text", text: "tool call failed: 404" }] });
    expect(calls.find((c) => c.id === eventOnly.m.toolCallId)).toMatchObject({ name: "mcp__github__get_issue", arguments: { number: 12 } });
  });

  it("tool_search_call is a call; its output names the tools found", () => {
    const search = results.find((x) => x.m.toolName === "tool_search")!;
    expect(search.m.content).toEqual([{ type: "text", text: "Found 2 tools: mcp__github.list_issues, mcp__github.get_issue" }]);
    expect(calls.find((c) => c.name === "tool_search")).toMatchObject({ arguments: { query: "github issues", limit: 8 } });
  });

  it("an output that is a list keeps its text and its image", () => {
    const shot = results.find((x) => x.m.toolName === "screenshot")!;
    expect(shot.m.content).toEqual([
      { type: "text", text: "Screenshot:" },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
    ]);
  });

  it("a call still open at the end of the file (its turn not over) is left for its output", () => {
    const lines = file.text.trimEnd().split("\n");
    const cut = lines.slice(0, lines.findIndex((l) => l.includes("sleep")) + 1).join("\n");
    const open = mapSessionText(`${cut}\n`)!;
    const lastCall = open.entries.flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? e.message.content : [])).filter((p) => p.type === "toolCall").at(-1)!;
    expect(open.entries.some((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolCallId === lastCall.id)).toBe(false);
    expect(open.notes).toEqual([]);
  });
});
