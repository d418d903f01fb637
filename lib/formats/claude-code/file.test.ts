/**
 * Claude Code files beyond one thread (docs/formats.md "Claude Code", "Subagents"): inline
 * sidechain runs as sessions of their own, 2.1.x records, and what the mapping repairs.
 */
import { describe, expect, it } from "vitest";
import { buildChatItems } from "@/components/chat/chat-items";
import { toProviderPrompt } from "@/lib/llm/provider-prompt";
import { buildSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/file/convert";
import { userMessageText } from "@/lib/session/prompt-title";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import type { SessionEntry } from "@/lib/session/types";
import { countEntries } from "@/lib/formats/count";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { mapSessionText } from "@/lib/formats/map-lines";

const base = { sessionId: "s1", cwd: "/w", version: "1.0.108", isSidechain: false, timestamp: "2025-09-07T09:00:00.000Z" };
const lines = (...records: Record<string, unknown>[]) => `${records.map((r) => JSON.stringify({ ...base, ...r })).join("\n")}\n`;
const user = (uuid: string, parentUuid: string | null, content: unknown, extra: Record<string, unknown> = {}) => ({ type: "user", uuid, parentUuid, message: { role: "user", content }, ...extra });
const assistant = (uuid: string, parentUuid: string | null, id: string, content: unknown[], extra: Record<string, unknown> = {}) => ({
  type: "assistant",
  uuid,
  parentUuid,
  message: { id, role: "assistant", model: "claude-sonnet-4", content, stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } },
  ...extra,
});

describe("inline sidechains (Claude Code 1.0.x)", () => {
  const file = generateClaudeCodeSession({ seed: 7, turns: 6, sidechain: true });
  const mapped = mapSessionText(file.text)!;

  it("the main thread holds only the main thread; the run is a session of its own", () => {
    expect(countEntries(mapped.entries)).toEqual(file.expected);
    expect(mapped.sidechains).toHaveLength(1);
    const side = mapped.sidechains[0]!;
    expect(countEntries(side.entries)).toEqual(file.sidechainExpected);
    expect(side.header).toMatchObject({ parentSession: file.sessionId, sourceFormat: "claude-code" });
    expect(side.header.id).toMatch(new RegExp(`^${file.sessionId}\\.sidechain-`));
    const first = side.entries.find((e) => e.type === "message");
    expect(first?.type === "message" && first.message.role === "user" && userMessageText(first.message)).toBe("Sidechain task: look around");
  });

  it("the Task call's result links to the run's session", () => {
    const results = mapped.entries.flatMap((e) => (e.type === "message" && e.message.role === "toolResult" && e.message.toolName === "Task" ? [e.message] : []));
    expect(results.map((r) => r.subagentSessionId)).toEqual([mapped.sidechains[0]!.header.id]);
  });

  it("parallel Task runs are told apart by their prompts", () => {
    const text = lines(
      user("u1", null, "do two things"),
      assistant("a1", "u1", "m1", [
        { type: "tool_use", id: "t1", name: "Task", input: { prompt: "first job" } },
        { type: "tool_use", id: "t2", name: "Task", input: { prompt: "second job" } },
      ]),
      user("s2", null, "second job", { isSidechain: true }),
      user("s1", null, "first job", { isSidechain: true }),
      assistant("s1a", "s1", "m2", [{ type: "text", text: "one done" }], { isSidechain: true }),
      assistant("s2a", "s2", "m3", [{ type: "text", text: "two done" }], { isSidechain: true }),
      user("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "one done" }]),
      user("r2", "r1", [{ type: "tool_result", tool_use_id: "t2", content: "two done" }]),
    );
    const m = mapSessionText(text)!;
    expect(m.sidechains.map((s) => s.header.id)).toEqual(["s1.sidechain-s2", "s1.sidechain-s1"]);
    expect(m.sidechains.map((s) => s.entries.map((e) => e.id))).toEqual([
      ["s2", "s2a"],
      ["s1", "s1a"],
    ]);
    const links = Object.fromEntries(m.entries.flatMap((e) => (e.type === "message" && e.message.role === "toolResult" ? [[e.message.toolCallId, e.message.subagentSessionId]] : [])));
    expect(links).toEqual({ t1: "s1.sidechain-s1", t2: "s1.sidechain-s2" });
    expect(m.entries.map((e) => e.id)).toEqual(["u1", "a1", "r1", "r2"]);
  });

  it("a lone subagent file (every record a sidechain) is one session whose prompt is the task", () => {
    const text = lines(
      user("x1", null, "look for TODOs", { isSidechain: true, agentId: "ab12" }),
      assistant("x2", "x1", "m1", [{ type: "text", text: "none" }], { isSidechain: true, agentId: "ab12" }),
    );
    const m = mapSessionText(text)!;
    expect(m.sidechains).toEqual([]);
    expect(m.header).toMatchObject({ id: "s1.agent-ab12", parentSession: "s1" });
    expect(countEntries(m.entries)).toMatchObject({ prompts: 1, assistants: 1 });
  });
});

describe("Claude Code 2.1.x records", () => {
  const file = generateClaudeCodeSession({ seed: 9, turns: 4, modern: true });
  const mapped = mapSessionText(file.text)!;
  const customTypes = new Set(mapped.entries.flatMap((e) => (e.type === "custom" ? [e.customType] : [])));

  it("keeps every record: session state and hook records as custom entries, the counts exact", () => {
    expect(countEntries(mapped.entries)).toEqual(file.expected);
    for (const t of ["last-prompt", "permission-mode", "mode", "bridge-session", "pr-link", "attachment", "progress", "system/turn_duration", "system/away_summary"]) {
      expect(customTypes, t).toContain(`claude-code/${t}`);
    }
  });

  it("what Claude Code showed its user is a notice in the chat: the away recap, a turn's duration; never in a request", () => {
    const away = mapped.entries.find((e) => e.type === "custom" && e.customType === "claude-code/system/away_summary");
    expect(away?.type === "custom" && away.notice).toMatch(/^While you were away: /);
    const turn = mapped.entries.find((e) => e.type === "custom" && e.customType === "claude-code/system/turn_duration");
    expect(turn?.type === "custom" && turn.notice).toMatch(/^Turn took \d+ (s|min \d+ s)$/);
    const leaf = mapped.entries.filter((e) => e.type === "message").at(-1)!;
    const byId = new Map(mapped.entries.map((e) => [e.id, e]));
    const path: SessionEntry[] = [];
    for (let e = byId.get(leaf.id); e; e = e.parentId ? byId.get(e.parentId) : undefined) path.unshift(e);
    const notices = buildChatItems(path).items.filter((i) => i.kind === "notice");
    expect(notices.length).toBeGreaterThanOrEqual(2);
    expect(notices.every((n) => !n.inContext)).toBe(true);
    const sent = JSON.stringify(buildSessionContext(mapped.entries, leaf.id).messages);
    expect(sent).not.toContain("While you were away");
  });

  it("ai-title records name the session (session_info entries: the last one is the title)", () => {
    const infos = mapped.entries.filter((e): e is SessionEntry & { type: "session_info" } => e.type === "session_info");
    expect(infos.length).toBe(2);
    expect(infos.at(-1)!.name).toBe(file.title);
  });

  it("api_error retries are failed model calls: assistants with stopReason error, no content, never in a request", () => {
    const errors = mapped.entries.filter((e) => e.type === "message" && e.message.role === "assistant" && e.message.stopReason === "error");
    expect(errors).toHaveLength(2);
    const first = errors[0]!;
    expect(first.type === "message" && first.message.role === "assistant" && first.message.errorMessage).toBe("API error 529 overloaded_error: Overloaded (retry 1 of 10 in 0.5 s)");
    expect(first.type === "message" && first.message.role === "assistant" && first.message.content).toEqual([]);
    const leaf = mapped.entries.filter((e) => e.type === "message").at(-1)!;
    const { messages } = buildSessionContext(mapped.entries, leaf.id);
    expect(messages.filter((m) => m.role === "assistant" && m.stopReason === "error")).toHaveLength(2);
    const prompt = toProviderPrompt(undefined, convertToLlm(messages, TEST_PROMPTS));
    const answered = messages.filter((m) => m.role === "assistant" && m.stopReason !== "error");
    expect(prompt.filter((m) => m.role === "assistant")).toHaveLength(answered.length);
  });
});

describe("what the mapping repairs, reported by line", () => {
  it("a uuid used twice keeps both records; a parentUuid cycle or a parent not in the file starts a root", () => {
    const text = lines(
      user("a", "b", "first, naming a later parent"),
      user("b", "a", "second, closing the cycle"),
      user("a", "b", "the uuid again"),
      user("c", "elsewhere", "parent in another file"),
    );
    const m = mapSessionText(text)!;
    expect(m.entries.map((e) => [e.id, e.parentId])).toEqual([
      ["a", null],
      ["b", "a"],
      ["a~3", "b"],
      ["c", null],
    ]);
    const ctx = buildSessionContext(m.entries, "a~3");
    expect(ctx.messages).toHaveLength(3);
    expect(m.notes).toEqual([
      { line: 1, message: "parentUuid b names no record before this one: it starts a new root" },
      { line: 3, message: "uuid a is used again (first on line 1): this record is kept as a~3" },
      { line: 4, message: "parentUuid elsewhere names no record before this one: it starts a new root" },
    ]);
  });
});
