/** "Copy resume command": the command for the agent the session came from. */
import { describe, expect, it } from "vitest";
import { resumeCommand, shellQuote } from "./resume-command";

const meta = (header: Record<string, unknown>, extra: { cwd?: string; sourceFileName?: string | null } = {}) => ({
  id: "s-1",
  header: { type: "session", id: "s-1", ...header } as never,
  cwd: extra.cwd ?? "",
  sourceFileName: extra.sourceFileName ?? null,
});

describe("resumeCommand", () => {
  it("resumes a Claude Code session in its project folder", () => {
    const m = meta({ sourceFormat: "claude-code", claudeCode: { sessionId: "466e2cb2" } }, { cwd: "/repo/my cli" });
    expect(resumeCommand(m)).toEqual({ agent: "Claude Code", command: "cd '/repo/my cli' && claude --resume 466e2cb2" });
  });

  it("has none for a Claude Code subagent", () => {
    expect(resumeCommand(meta({ sourceFormat: "claude-code", claudeCode: { sessionId: "p", agentId: "a1" } }))).toBeNull();
  });

  it("resumes a Codex rollout by its session id", () => {
    expect(resumeCommand(meta({ codex: { session_id: "019efedf" } }))).toEqual({ agent: "Codex", command: "codex resume 019efedf" });
  });

  it("opens a pi session by its file", () => {
    expect(resumeCommand(meta({}, { sourceFileName: "2025-12-24_s-1.jsonl" }))?.command).toBe("pi --session 2025-12-24_s-1.jsonl");
    expect(resumeCommand(meta({}))?.command).toBe("pi --session s-1.jsonl");
  });

  it("has none for a format without one", () => {
    expect(resumeCommand(meta({ sourceFormat: "gemini" }))).toBeNull();
  });

  it("quotes what the shell would split", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("/a/b-c.jsonl")).toBe("/a/b-c.jsonl");
  });
});
