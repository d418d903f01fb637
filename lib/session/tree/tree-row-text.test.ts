import { describe, expect, it } from "vitest";
import {
  assistantEntry,
  assistantMsg,
  bashMsg,
  branchSummaryEntry,
  compactionEntry,
  customEntry,
  customMessageEntry,
  customMsg,
  entry,
  image,
  labelEntry,
  messageEntry,
  modelChangeEntry,
  text,
  thinkingEntry,
  toolCall,
  toolResultMsg,
  userEntry,
  userMsg,
} from "@/test/session-factories";
import {
  buildToolCallIndex,
  displayText,
  normalizeRowText,
  rowText,
  searchableText,
} from "@/lib/session/tree/tree-row-text";
import type { ToolCall } from "@/lib/session/types";

const none = { toolCallsById: new Map<string, ToolCall>() };

/** Row text of a toolResult answering `call`. */
function resultText(call: ToolCall): string {
  const result = messageEntry("r", "a", toolResultMsg(call.id, "output", { toolName: call.name }));
  return rowText(result, { toolCallsById: new Map([[call.id, call]]) });
}

describe("row text normalization (session-engine.md §16.2)", () => {
  it("replaces \\n and \\t with spaces and trims", () => {
    expect(normalizeRowText("\n a\tb\nc \t")).toBe("a b c");
  });

  it("user rows: `user: <text>` from string or text blocks, images ignored", () => {
    expect(rowText(userEntry("u", null, "  hello\nworld\t"), none)).toBe("user: hello world");
    const blocks = messageEntry("u", null, userMsg([text("ab"), image(), text("cd")]));
    expect(rowText(blocks, none)).toBe("user: abcd");
  });

  it("user and assistant rows take the first 200 characters of the content", () => {
    const long = `${"x".repeat(199)}yz${"w".repeat(50)}`;
    expect(rowText(userEntry("u", null, long), none)).toBe(`user: ${"x".repeat(199)}y`);
    expect(rowText(assistantEntry("a", null, long), none)).toBe(`assistant: ${"x".repeat(199)}y`);
    // The cut happens across block boundaries too.
    const split = messageEntry("u", null, userMsg([text("a".repeat(150)), text("b".repeat(100))]));
    expect(rowText(split, none)).toBe(`user: ${"a".repeat(150)}${"b".repeat(50)}`);
  });
});

describe("assistant rows (session-engine.md §16.2)", () => {
  it("shows its text, not its thinking", () => {
    expect(rowText(assistantEntry("a", null, "Done.", { thinking: "hmm" }), none)).toBe("assistant: Done.");
  });

  it("no text and aborted → (aborted), even with an errorMessage", () => {
    const e = assistantEntry("a", null, "", { stopReason: "aborted", errorMessage: "Request was aborted" });
    expect(rowText(e, none)).toBe("assistant: (aborted)");
  });

  it("no text with an errorMessage → its first 80 characters", () => {
    const e = assistantEntry("a", null, "", { stopReason: "error", errorMessage: `E\n${"r".repeat(100)}` });
    expect(rowText(e, none)).toBe(`assistant: ${`E ${"r".repeat(100)}`.slice(0, 80)}`);
  });

  it("no text, no error → (no content); whitespace-only text counts as none", () => {
    expect(rowText(assistantEntry("a", null, "", { thinking: "t" }), none)).toBe("assistant: (no content)");
    expect(rowText(assistantEntry("a", null, " \n\t "), none)).toBe("assistant: (no content)");
  });

  it("tool calls only → the calls by name and main argument, in order", () => {
    const calls = [toolCall("c1", "read", { path: "src/a.ts" }), toolCall("c2", "bash", { command: "npm\ntest" }), toolCall("c3", "grep", { pattern: "TODO", path: "src" })];
    expect(rowText(assistantEntry("a", null, "", { toolCalls: calls, thinking: "plan" }), none)).toBe("assistant: read(src/a.ts), bash(npm test), grep(TODO)");
    // Other tools show their arguments as JSON (40 characters at most); a long list is cut at 200.
    expect(rowText(assistantEntry("a", null, "", { toolCalls: [toolCall("c", "web_search", { query: "x".repeat(60) })] }), none)).toBe(
      `assistant: web_search(${`{"query":"${"x".repeat(60)}"}`.slice(0, 40)}...)`,
    );
    const many = Array.from({ length: 30 }, (_, i) => toolCall(`c${i}`, "ls", { path: `dir${i}` }));
    const row = rowText(assistantEntry("a", null, "", { toolCalls: many }), none);
    expect(row.length).toBe("assistant: ".length + 203);
    expect(row.endsWith("...")).toBe(true);
  });

  it("text, an abort or an error still win over the calls", () => {
    const calls = [toolCall("c1", "read", { path: "a.ts" })];
    expect(rowText(assistantEntry("a", null, "Reading.", { toolCalls: calls }), none)).toBe("assistant: Reading.");
    expect(rowText(assistantEntry("a", null, "", { toolCalls: calls, stopReason: "aborted" }), none)).toBe("assistant: (aborted)");
    expect(rowText(assistantEntry("a", null, "", { toolCalls: calls, stopReason: "error", errorMessage: "boom" }), none)).toBe("assistant: boom");
  });
});

describe("toolResult rows (session-engine.md §16.2)", () => {
  it("read: path, with a range when offset/limit are set", () => {
    expect(resultText(toolCall("c", "read", { path: "a.ts" }))).toBe("[read: a.ts]");
    expect(resultText(toolCall("c", "read", { path: "a.ts", offset: 10, limit: 5 }))).toBe("[read: a.ts:10-14]");
    expect(resultText(toolCall("c", "read", { path: "a.ts", limit: 20 }))).toBe("[read: a.ts:1-20]");
    expect(resultText(toolCall("c", "read", { path: "a.ts", offset: 7 }))).toBe("[read: a.ts:7]");
  });

  it("write and edit show the path", () => {
    expect(resultText(toolCall("c", "write", { path: "w.ts", content: "x" }))).toBe("[write: w.ts]");
    expect(resultText(toolCall("c", "edit", { path: "e.ts", oldText: "a", newText: "b" }))).toBe("[edit: e.ts]");
  });

  it("bash: first 50 characters of the command, `...` only when longer", () => {
    const fifty = "e".repeat(50);
    expect(resultText(toolCall("c", "bash", { command: fifty }))).toBe(`[bash: ${fifty}]`);
    expect(resultText(toolCall("c", "bash", { command: `${fifty}X` }))).toBe(`[bash: ${fifty}...]`);
    expect(resultText(toolCall("c", "bash", { command: "ls\n-la" }))).toBe("[bash: ls -la]");
  });

  it("grep, find and ls default a missing path to `.`", () => {
    expect(resultText(toolCall("c", "grep", { pattern: "foo", path: "src" }))).toBe("[grep: /foo/ in src]");
    expect(resultText(toolCall("c", "grep", { pattern: "foo" }))).toBe("[grep: /foo/ in .]");
    expect(resultText(toolCall("c", "find", { pattern: "*.ts" }))).toBe("[find: *.ts in .]");
    expect(resultText(toolCall("c", "find", { pattern: "*.ts", path: "lib" }))).toBe("[find: *.ts in lib]");
    expect(resultText(toolCall("c", "ls", {}))).toBe("[ls: .]");
    expect(resultText(toolCall("c", "ls", { path: "docs" }))).toBe("[ls: docs]");
  });

  it("other tools: first 40 characters of the JSON arguments, `...` when longer", () => {
    expect(resultText(toolCall("c", "web", { q: "x" }))).toBe('[web: {"q":"x"}]');
    const args = { query: "a".repeat(60) };
    const json = JSON.stringify(args);
    expect(resultText(toolCall("c", "web", args))).toBe(`[web: ${json.slice(0, 40)}...]`);
  });

  it("without a matching call: [toolName], else [tool]", () => {
    const r = messageEntry("r", null, toolResultMsg("missing", "out", { toolName: "bash" }));
    expect(rowText(r, none)).toBe("[bash]");
    const anon = messageEntry("r", null, { ...toolResultMsg("missing", "out"), toolName: "" });
    expect(rowText(anon, none)).toBe("[tool]");
  });

  it("buildToolCallIndex finds calls of every assistant in one pass", () => {
    const a1 = assistantEntry("a1", null, "", { toolCalls: [toolCall("c1", "read", { path: "x" })] });
    const a2 = assistantEntry("a2", "a1", "", { toolCalls: [toolCall("c2", "ls"), toolCall("c3", "bash")] });
    const index = buildToolCallIndex([a1, userEntry("u", "a2", "hi"), a2]);
    expect([...index.keys()]).toEqual(["c1", "c2", "c3"]);
    const r = messageEntry("r", "a2", toolResultMsg("c1", "data", { toolName: "read" }));
    expect(rowText(r, { toolCallsById: index })).toBe("[read: x]");
  });
});

describe("other rows (session-engine.md §16.2)", () => {
  it("bashExecution, other roles", () => {
    expect(rowText(messageEntry("b", null, bashMsg("git\tstatus", "")), none)).toBe("[bash]: git status");
    expect(rowText(messageEntry("c", null, customMsg("note", "x")), none)).toBe("[custom]");
    const py = { role: "pythonExecution", code: "1", output: "", exitCode: 0, cancelled: false, truncated: false };
    expect(rowText(entry("message", "p", null, { message: { ...py, timestamp: 0 } }), none)).toBe("[pythonExecution]");
  });

  it("custom_message, compaction, branch summary", () => {
    expect(rowText(customMessageEntry("m", null, "reminder", "be\nbrief"), none)).toBe("[reminder]: be brief");
    expect(rowText(customMessageEntry("m", null, "r", [text("a"), text("b")]), none)).toBe("[r]: ab");
    expect(rowText(compactionEntry("k", null, "s", "x", 1499), none)).toBe("[compaction: 1k tokens]");
    expect(rowText(compactionEntry("k", null, "s", "x", 1500), none)).toBe("[compaction: 2k tokens]");
    expect(rowText(compactionEntry("k", null, "s", "x", 123_456), none)).toBe("[compaction: 123k tokens]");
    expect(rowText(branchSummaryEntry("s", null, "root", "Tried\nX"), none)).toBe("[branch summary]: Tried X");
  });

  it("model, thinking, custom, label, unknown types", () => {
    expect(rowText(modelChangeEntry("m", null, "openai/gpt-5"), none)).toBe("[model: openai/gpt-5]");
    const legacy = entry("model_change", "m", null, { provider: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(rowText(legacy, none)).toBe("[model: anthropic/claude-sonnet-4-5]");
    expect(rowText(thinkingEntry("t", null, "high"), none)).toBe("[thinking: high]");
    expect(rowText(customEntry("c", null, "ext-state"), none)).toBe("[custom: ext-state]");
    expect(rowText(labelEntry("l", null, "x", "v1"), none)).toBe("[label: v1]");
    expect(rowText(labelEntry("l", null, "x", undefined), none)).toBe("[label: (cleared)]");
    expect(rowText(entry("session_init", "s", null, { systemPrompt: "p" }), none)).toBe("[session_init]");
  });

  it("labels show as a `[label] ` prefix (session-engine.md §16.1)", () => {
    expect(displayText("user: hi", "v1")).toBe("[v1] user: hi");
    expect(displayText("user: hi", undefined)).toBe("user: hi");
  });
});

describe("searchable text (session-engine.md §16.3)", () => {
  it("messages: label, role, full content text and the bash command", () => {
    const long = `${"a".repeat(300)} needle`;
    expect(searchableText(userEntry("u", null, long), "v1")).toBe(`v1 user ${long}`);
    expect(searchableText(messageEntry("b", null, bashMsg("npm test", "ok")), undefined)).toContain("npm test");
    expect(searchableText(messageEntry("r", null, toolResultMsg("c", "file body")), undefined)).toBe(
      "toolResult file body",
    );
    expect(searchableText(assistantEntry("a", null, "hi", { stopReason: "stop" }), undefined)).toBe("assistant hi");
  });

  it("per-type words for the other entries", () => {
    expect(searchableText(customMessageEntry("m", null, "note", "body"), undefined)).toBe("note body");
    expect(searchableText(compactionEntry("k", null, "secret summary", "x"), undefined)).toBe("compaction");
    expect(searchableText(branchSummaryEntry("s", null, "root", "sum"), undefined)).toBe("branch summary sum");
    expect(searchableText(modelChangeEntry("m", null, "a/b"), undefined)).toBe("model a/b");
    expect(searchableText(thinkingEntry("t", null, "low"), undefined)).toBe("thinking low");
    expect(searchableText(customEntry("c", null, "ct"), undefined)).toBe("custom ct");
    expect(searchableText(labelEntry("l", null, "x", "tag"), undefined)).toBe("label tag");
  });

  it("assistant text only, thinking is not searchable", () => {
    expect(searchableText(messageEntry("a", null, assistantMsg("t", { thinking: "deep" })), undefined)).not.toContain(
      "deep",
    );
  });
});
