/** The format adapters over our own generated Claude Code and Codex files (docs/formats.md). */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "@/lib/session/context";
import type { SessionEntry } from "@/lib/session/types";
import { createClaudeCodeMapper } from "./claude-code/file";
import { countEntries } from "./count";
import { detectFormat } from "./detect";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { mapSessionText } from "./map-lines";
import { FormatError } from "./types";

/** Every id unique, every parent placed before its child (or a root). */
function expectWellFormedTree(entries: SessionEntry[]) {
  const seen = new Set<string>();
  for (const e of entries) {
    expect(seen.has(e.id), `duplicate id ${e.id}`).toBe(false);
    if (e.parentId !== null) expect(seen.has(e.parentId), `parent of ${e.id} not placed before it`).toBe(true);
    seen.add(e.id);
  }
}

describe("detectFormat", () => {
  it("tells the formats apart by content", () => {
    expect(detectFormat([{ type: "session", id: "x", version: 3 }])).toBe("pi");
    expect(detectFormat([{ timestamp: "t", type: "session_meta", payload: { id: "a" } }])).toBe("codex");
    expect(detectFormat([{ type: "summary", summary: "s", leafUuid: "u" }, { type: "user", uuid: "a", parentUuid: null, sessionId: "s" }])).toBe("claude-code");
    expect(detectFormat([{ type: "file-history-snapshot", messageId: "m", snapshot: {} }])).toBe("claude-code");
    expect(detectFormat([{ hello: "world" }])).toBeNull();
    expect(detectFormat([])).toBeNull();
  });
});

describe("Claude Code mapping", () => {
  const file = generateClaudeCodeSession({ seed: 7, turns: 12, branches: 2, compactions: 2, sidechain: true, cutLastLine: true });
  const mapped = mapSessionText(file.text)!;

  it("finds exactly the prompts, responses, tool calls, errors, compactions and custom records of the file", () => {
    expect(mapped.format).toBe("claude-code");
    expect(mapped.records).toBe(file.records);
    expect(countEntries(mapped.entries)).toEqual(file.expected);
    expect(file.expected.toolErrors).toBeGreaterThan(0);
    expectWellFormedTree(mapped.entries);
  });

  it("reports the line cut in the middle, and keeps the header's session facts", () => {
    expect(mapped.skipped).toHaveLength(1);
    expect(mapped.skipped[0]!.reason).toMatch(/ends in the middle of this line/);
    expect(mapped.header).toMatchObject({ type: "session", version: 3, id: file.sessionId, cwd: "/home/dev/project", sourceFormat: "claude-code" });
    expect(mapped.header.claudeCode).toMatchObject({ version: "2.0.14", gitBranch: "main" });
  });

  it("merges the records of one response into one assistant message, keeping the later records' ids", () => {
    const assistants = mapped.entries.filter((e) => e.type === "message" && e.message.role === "assistant");
    const merged = assistants.filter((e) => Array.isArray((e.source as { mergedRecords?: unknown[] } | undefined)?.mergedRecords));
    expect(merged.length).toBeGreaterThan(0);
    for (const e of merged) if (e.type === "message" && e.message.role === "assistant") expect(e.message.content.length).toBeGreaterThan(1);
  });

  it("makes branches of sibling records and titles the leaf's branch from its summary record", () => {
    const children = new Map<string, number>();
    for (const e of mapped.entries) if (e.parentId) children.set(e.parentId, (children.get(e.parentId) ?? 0) + 1);
    expect([...children.values()].filter((n) => n > 1).length).toBeGreaterThanOrEqual(2);
    const label = mapped.entries.find((e) => e.type === "label");
    expect(label).toMatchObject({ label: "Generated work session" });
  });

  it("turns compact_boundary + its summary into a compaction that keeps nothing from before it", () => {
    const compactions = mapped.entries.filter((e) => e.type === "compaction");
    expect(compactions).toHaveLength(2);
    for (const c of compactions) {
      if (c.type !== "compaction") continue;
      expect(c.summary).toMatch(/^This session is being continued/);
      expect(c.tokensBefore).toBeGreaterThan(150_000);
      const next = mapped.entries[mapped.entries.indexOf(c) + 1]!;
      expect(c.firstKeptEntryId).toBe(next.id);
    }
    const last = compactions.at(-1)!;
    const afterLast = mapped.entries.slice(mapped.entries.indexOf(last)).find((e) => e.type === "message" && e.message.role === "assistant")!;
    const ctx = buildSessionContext(mapped.entries, afterLast.id);
    expect(ctx.messages[0]!.role).toBe("compactionSummary");
    expect(ctx.messages.filter((m) => m.role === "compactionSummary")).toHaveLength(1);
  });

  it("keeps tool results next to their calls in the context, with is_error and the tool's name", () => {
    const leaf = mapped.entries.filter((e) => e.type === "message").at(-1)!;
    const ctx = buildSessionContext(mapped.entries, leaf.id);
    const calls = new Map<string, string>();
    for (const m of ctx.messages) {
      if (m.role === "assistant") for (const p of m.content) if (p.type === "toolCall") calls.set(p.id, p.name);
      if (m.role === "toolResult") expect(calls.get(m.toolCallId)).toBe(m.toolName);
    }
    expect(ctx.models.default).toBe("anthropic/claude-sonnet-4-5-20250929");
  });

  it("keeps unmodelled records as custom entries with the record's fields", () => {
    const mystery = mapped.entries.find((e) => e.type === "custom" && e.customType === "claude-code/mystery-kind");
    expect(mystery).toMatchObject({ data: { type: "mystery-kind", payload: { anything: [1, 2, 3] } } });
  });

  it("names the line of a record it cannot map", () => {
    const mapper = createClaudeCodeMapper();
    expect(() => mapper.push({ uuid: "a" }, 4)).toThrowError(new FormatError(4, "Claude Code record has no type", "type"));
    expect(() => mapper.push({ type: "user", message: { role: "user", content: "x" } }, 5)).toThrowError(/line 5: Claude Code user record has no uuid \(field uuid\)/);
  });
});

describe("Codex mapping", () => {
  const file = generateCodexSession({ seed: 11, turns: 10, compactions: 2, forkedFrom: "0199-parent", cutLastLine: true });
  const mapped = mapSessionText(file.text)!;

  it("finds exactly the prompts, responses, tool calls, errors and compactions of the rollout", () => {
    expect(mapped.format).toBe("codex");
    expect(mapped.records).toBe(file.records);
    expect(countEntries(mapped.entries)).toEqual(file.expected);
    expect(mapped.skipped).toHaveLength(1);
    expectWellFormedTree(mapped.entries);
  });

  it("takes the header from session_meta, linking the fork to its parent", () => {
    expect(mapped.header).toMatchObject({ id: file.sessionId, cwd: "/home/dev/app", parentSession: "0199-parent", sourceFormat: "codex" });
    expect(mapped.header.codex).toMatchObject({ cli_version: "0.46.0", git: { branch: "main" } });
  });

  it("maps turn_context to model and thinking-level changes, and token_count to usage", () => {
    const leaf = mapped.entries.filter((e) => e.type === "message").at(-1)!;
    const ctx = buildSessionContext(mapped.entries, leaf.id);
    expect(ctx.thinkingLevel).toMatch(/^(medium|high)$/);
    expect(ctx.models.default).toMatch(/^openai\/gpt-5/);
    const assistants = mapped.entries.filter((e) => e.type === "message" && e.message.role === "assistant");
    for (const a of assistants) if (a.type === "message" && a.message.role === "assistant") expect(a.message.usage.totalTokens).toBeGreaterThan(0);
  });

  it("keeps the replacement history of a compaction, and its summary is what the context starts from", () => {
    const c = mapped.entries.find((e) => e.type === "compaction");
    expect(c?.type === "compaction" && c.preserveData?.codexReplacementHistory).toHaveLength(2);
    const leaf = mapped.entries.filter((e) => e.type === "message").at(-1)!;
    expect(buildSessionContext(mapped.entries, leaf.id).messages[0]!.role).toBe("compactionSummary");
  });

  it("parses function-call arguments and reads a non-zero exit code as a tool error", () => {
    const call = mapped.entries.flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? e.message.content : [])).find((p) => p.type === "toolCall" && p.name === "shell");
    expect(call).toMatchObject({ arguments: { command: ["bash", "-lc", "ls"] } });
  });

  it("refuses a record without a payload, naming its line", () => {
    const text = `${JSON.stringify({ timestamp: "2025-01-01T00:00:00Z", type: "session_meta", payload: { id: "s" } })}\n${JSON.stringify({ type: "response_item" })}\n`;
    expect(() => mapSessionText(text)).toThrowError(/line 2: Codex response_item record has no payload object \(field payload\)/);
  });
});

describe("reconstructionGaps", () => {
  it("says what each format does not record", async () => {
    const { reconstructionGaps, CLAUDE_CODE_GAP, CODEX_GAP, PI_GAP } = await import("./gaps");
    expect(reconstructionGaps({ sourceFormat: "claude-code" }, [])).toEqual([CLAUDE_CODE_GAP]);
    expect(reconstructionGaps({}, [])).toEqual([PI_GAP]);
    const codex = mapSessionText(generateCodexSession({ seed: 5, turns: 6, compactions: 1 }).text)!;
    const notes = reconstructionGaps(codex.header, codex.entries);
    expect(notes[0]).toBe(CODEX_GAP);
    expect(notes[1]).toMatch(/After compaction entry L\d+ Codex sent its replacement history \(2 items\)/);
  });
});

describe("Claude Code subagents", () => {
  const parent = generateClaudeCodeSession({ seed: 12, turns: 4, subagents: 2 });
  const mapped = mapSessionText(parent.text)!;

  it("the parent's Task results link to the subagent sessions, whose files map to sessions with the parent as parentSession", () => {
    expect(countEntries(mapped.entries)).toEqual(parent.expected);
    const links = mapped.entries.flatMap((e) => (e.type === "message" && e.message.role === "toolResult" && e.message.subagentSessionId ? [e.message] : []));
    expect(links.map((m) => m.toolName)).toEqual(["Task", "Task"]);
    expect(parent.subagents).toHaveLength(2);
    for (const [i, sub] of parent.subagents!.entries()) {
      expect(sub.relativePath).toBe(`${parent.sessionId}/subagents/agent-${sub.agentId}.jsonl`);
      const child = mapSessionText(sub.text)!;
      expect(child.header).toMatchObject({ id: links[i]!.subagentSessionId, parentSession: parent.sessionId, claudeCode: { agentId: sub.agentId } });
      expect(countEntries(child.entries)).toEqual(sub.expected);
      expectWellFormedTree(child.entries);
    }
  });
});

describe("Codex replacement history in the reconstruction", () => {
  it("a turn after a compaction shows the replacement history's items, as written, where the summary would be", async () => {
    const { reconstructTurn } = await import("@/lib/inspector/reconstruct");
    const { TEST_PROMPTS } = await import("@/test/compaction-helpers");
    const gen = generateCodexSession({ seed: 5, turns: 6, compactions: 1 });
    const codex = mapSessionText(gen.text)!;
    const compaction = codex.entries.find((e) => e.type === "compaction")!;
    const history = (compaction.type === "compaction" && compaction.preserveData?.codexReplacementHistory) as { content: { text: string }[] }[];
    const after = codex.entries.findIndex((e) => e.id === compaction.id);
    const answer = codex.entries.slice(after).find((e) => e.type === "message" && e.message.role === "assistant")!;
    const turn = reconstructTurn(codex.entries, answer.id, TEST_PROMPTS)!;
    const head = turn.messages.slice(0, history.length);
    expect(head.map((m) => (m.message.role === "user" ? m.message.content : null))).toEqual(history.map((h) => [{ type: "text", text: h.content[0]!.text }]));
    expect(head.every((m) => m.source === "compaction" && m.sourceEntryId === compaction.id)).toBe(true);
    // No summary message besides: the replacement history is what Codex sent.
    expect(turn.messages.filter((m) => m.source === "compaction")).toHaveLength(history.length);
  });
});
