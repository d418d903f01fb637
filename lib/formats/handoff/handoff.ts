/**
 * "Continue in…": a branch written in the native format of pi, Claude Code or Codex CLI
 * (docs/formats.md "Hand-off"). The one entry the route and the tests use.
 * Pure: no network, disk or database access.
 */
import { writeClaudeCode } from "./claude-code";
import { writeCodex } from "./codex";
import type { HandoffFormat, HandoffInput, HandoffOutput } from "./plan";
import { writePi } from "./pi";

export { HANDOFF_LABELS, type HandoffFormat, type HandoffInput, type HandoffOutput } from "./plan";

export const HANDOFF_FORMATS: readonly HandoffFormat[] = ["pi", "claude", "codex"];

export function writeHandoff(format: HandoffFormat, input: HandoffInput): HandoffOutput {
  if (format === "claude") return writeClaudeCode(input);
  if (format === "codex") return writeCodex(input);
  return writePi(input);
}

/** The command that opens the written session in its agent. */
export function resumeCommand(out: Pick<HandoffOutput, "format" | "sessionId">): string {
  if (out.format === "claude") return `claude --resume ${out.sessionId}`;
  if (out.format === "codex") return `codex resume ${out.sessionId}`;
  return "pi --resume";
}
