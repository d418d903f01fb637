import { describe, expect, it } from "vitest";
import { TEST_PROMPTS, assistant, bash, call, img, toolResult, user } from "@/test/compaction-helpers";
import { convertToLlm, formatOutputNotice } from "@/lib/session/file/convert";
import type { AgentMessage, PythonExecutionMessage } from "@/lib/session/types";

const convert = (m: AgentMessage[]) => convertToLlm(m, TEST_PROMPTS);
const onlyText = (m: AgentMessage): string => {
  const [out] = convert([m]);
  if (!out || out.role === "assistant" || typeof out.content === "string") throw new Error("no text output");
  const block = out.content[0];
  if (block?.type !== "text") throw new Error("first block is not text");
  return block.text;
};

function python(extra: Partial<PythonExecutionMessage> = {}): PythonExecutionMessage {
  return { role: "pythonExecution", code: "print(1)", output: "1", exitCode: 0, cancelled: false, truncated: false, timestamp: 7, ...extra };
}

describe("convertToLlm (session-engine.md §3)", () => {
  it("passes user and assistant messages through unchanged", () => {
    const u = user("hi");
    const a = assistant("hello", { calls: [call("c1", "read", { path: "a" })] });
    const out = convert([u, a]);
    expect(out[0]).toBe(u);
    expect(out[1]).toBe(a);
  });

  it("passes an unpruned toolResult through unchanged, images included", () => {
    const r = toolResult("c1", [{ type: "text", text: "x" }, img()]);
    expect(convert([r])[0]).toBe(r);
  });

  it("reduces a pruned toolResult to one text block, dropping images, without mutating", () => {
    const r = toolResult("c1", [{ type: "text", text: "[Output truncated - 9 tokens]" }, img(), { type: "text", text: "!" }], {
      prunedAt: 5,
    });
    const [out] = convert([r]);
    expect(out).toMatchObject({ role: "toolResult", toolCallId: "c1", prunedAt: 5, timestamp: r.timestamp });
    expect(out?.content).toEqual([{ type: "text", text: "[Output truncated - 9 tokens]!" }]);
    expect(r.content).toHaveLength(3);
  });

  it("uses [Output truncated] for a pruned toolResult with no text", () => {
    const [out] = convert([toolResult("c1", [img()], { prunedAt: 1 })]);
    expect(out?.content).toEqual([{ type: "text", text: "[Output truncated]" }]);
  });

  it("formats the bashExecution example exactly", () => {
    expect(onlyText(bash("git status", "fatal: not a git repository", { exitCode: 128 }))).toBe(
      "Ran `git status`\n```\nfatal: not a git repository\n```\n\nCommand exited with code 128",
    );
  });

  it("bashExecution: (no output), no code line for 0/null/undefined, cancelled wins over the code", () => {
    expect(onlyText(bash("true", ""))).toBe("Ran `true`\n(no output)");
    expect(onlyText(bash("x", "o", { exitCode: null }))).toBe("Ran `x`\n```\no\n```");
    expect(onlyText(bash("x", "o", { exitCode: undefined }))).toBe("Ran `x`\n```\no\n```");
    expect(onlyText(bash("sleep 9", "", { cancelled: true, exitCode: 130 }))).toBe(
      "Ran `sleep 9`\n(no output)\n\n(command cancelled)",
    );
  });

  it("drops bash and python executions marked excludeFromContext", () => {
    expect(convert([bash("ls", "a", { excludeFromContext: true }), python({ excludeFromContext: true })])).toEqual([]);
  });

  it("formats pythonExecution text", () => {
    expect(onlyText(python())).toBe("Ran Python:\n```python\nprint(1)\n```\nOutput:\n```\n1\n```");
    expect(onlyText(python({ output: "", exitCode: 1 }))).toBe(
      "Ran Python:\n```python\nprint(1)\n```\n(no output)\n\nExecution failed with code 1",
    );
    expect(onlyText(python({ cancelled: true, exitCode: 1 }))).toMatch(/\n\n\(execution cancelled\)$/);
  });

  it("appends the output notice for meta", () => {
    const meta = { truncation: { outputLines: 10, totalLines: 500, artifactId: "art-1" } };
    expect(onlyText(bash("cat big", "x", { exitCode: 1, meta }))).toBe(
      "Ran `cat big`\n```\nx\n```\n\nCommand exited with code 1\n\n[Output truncated: showing 10 of 500 lines] Full output: art-1",
    );
    expect(onlyText(python({ meta: { truncation: {} } }))).toMatch(/\n\n\[Output truncated\]$/);
  });

  it("converts custom and hookMessage to user messages, wrapping string content", () => {
    const blocks = [{ type: "text" as const, text: "t" }, img()];
    const out = convert([
      { role: "custom", customType: "note", content: "hello", display: true, timestamp: 3 },
      { role: "hookMessage", customType: "h", content: blocks, display: false, timestamp: 4 },
    ]);
    expect(out).toEqual([
      { role: "user", content: [{ type: "text", text: "hello" }], timestamp: 3 },
      { role: "user", content: blocks, timestamp: 4 },
    ]);
  });

  it("wraps summaries with the rendered context templates (normalization reaches the summary)", () => {
    const out = convert([
      { role: "compactionSummary", summary: "did things  ", tokensBefore: 10, timestamp: 5 },
      { role: "branchSummary", summary: "  tried X", fromId: "f", timestamp: 6 },
    ]);
    expect(out).toEqual([
      { role: "user", content: [{ type: "text", text: "Recap follows.\n\n<summary>\ndid things\n</summary>" }], timestamp: 5 },
      { role: "user", content: [{ type: "text", text: "Side path recap.\n\n<summary>\n\ttried X\n</summary>" }], timestamp: 6 },
    ]);
  });

  it("formats fileMention as a system reminder followed by the images", () => {
    const pic = img("cGlj");
    const [out] = convert([
      {
        role: "fileMention",
        files: [
          { path: "a.ts", content: "const a = 1;" },
          { path: "big.bin", content: "", skippedReason: "tooLarge" },
          { path: "p.png", content: "", image: pic },
        ],
        timestamp: 9,
      },
    ]);
    expect(out).toEqual({
      role: "user",
      content: [
        {
          type: "text",
          text: '<system-reminder>\n<file path="a.ts">\nconst a = 1;\n</file>\n\n<file path="big.bin">\n</file>\n\n<file path="p.png">\n</file>\n</system-reminder>',
        },
        pic,
      ],
      timestamp: 9,
    });
  });

  it("drops unknown roles and keeps order", () => {
    const unknown = { role: "telemetry", timestamp: 1 } as unknown as AgentMessage;
    const out = convert([user("a"), unknown, user("b")]);
    expect(out.map((m) => (m.role === "user" ? m.content : null))).toEqual(["a", "b"]);
  });
});

describe("formatOutputNotice (session-engine.md §3 step 4)", () => {
  it("is empty without truncation info", () => {
    expect(formatOutputNotice(undefined)).toBe("");
    expect(formatOutputNotice({ other: 1 })).toBe("");
    expect(formatOutputNotice("x")).toBe("");
  });

  it("describes bytes when line counts are absent", () => {
    expect(formatOutputNotice({ truncation: { outputBytes: 100, totalBytes: 2000 } })).toBe(
      "\n\n[Output truncated: showing 100 of 2000 bytes]",
    );
  });
});
