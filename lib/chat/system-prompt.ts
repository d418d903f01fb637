import "server-only";
/**
 * The system prompt of Arbor's chat agent: who it is, the workspace tools it has this session,
 * and today's date. Pure. (prompts/*.md holds the summarization templates only, session-engine.md §17.)
 */
import type { ToolName } from "@/lib/tools/types";

const TOOL_LINES: Record<ToolName, string> = {
  read: "read — read a text file (numbered lines; use offset and limit for long files)",
  write: "write — create or overwrite a file",
  edit: "edit — replace an exact piece of text in a file",
  ls: "ls — list a folder",
  find: "find — find files by glob pattern",
  grep: "grep — search file contents with a regular expression",
};

export interface SystemPromptInput {
  tools: readonly ToolName[];
  now?: Date;
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  const date = (input.now ?? new Date()).toISOString().slice(0, 10);
  const lines = [
    "You are the agent of an Arbor session. Arbor keeps the conversation as a tree: the user can go back to any earlier point, branch from it, and compact long histories into summaries, so earlier parts of a conversation may reach you as summaries.",
    "Be direct and accurate. When you are unsure, say so, and ask when a request is ambiguous.",
  ];
  if (input.tools.length > 0) {
    lines.push(
      "",
      "You work in this session's workspace folder. Every path is relative to it; you cannot leave it and there is no shell. Tools:",
      ...input.tools.map((t) => `- ${TOOL_LINES[t]}`),
      "",
      "Read a file before you edit it, make the smallest change that does the job, and say what you changed.",
    );
  } else {
    lines.push("", "You have no tools in this session: answer from the conversation alone.");
  }
  lines.push("", `Today's date is ${date}.`);
  return lines.join("\n");
}
