/**
 * A session's title from its prompts (session-engine.md §1.2): the first prompt a person typed,
 * with what agents wrap around or inject into a prompt left out.
 * Pure: no network, disk or database access.
 *
 * - Synthetic user messages (written by the agent, not typed) are passed over.
 * - Left out of a prompt's text: agent preambles and environment blocks (Codex's
 *   `<permissions instructions>`, `<environment_context>`, `<user_instructions>`, AGENTS.md
 *   `<INSTRUCTIONS>`; `<system-reminder>`, `<skill>`, `<task-notification>`, Claude Code's IDE context
 *   `<ide_selection>` / `<ide_opened_file>`), a command's output
 *   (`<local-command-stdout>` / `-stderr` / `-caveat`) and command markup: Claude Code's
 *   `<command-name>/x</command-name><command-args>a</command-args>` reads "/x a",
 *   `<command-message>` is dropped. Whitespace runs become one space.
 * - A slash command alone ("/mode") is the title only when no other prompt follows it.
 */
import type { UserMessage } from "@/lib/session/types";

/** A user message's text: the string content, or its text blocks joined with "\n". */
export function userMessageText(message: UserMessage): string {
  if (typeof message.content === "string") return message.content;
  const parts: string[] = [];
  for (const block of message.content) if (block.type === "text") parts.push(block.text);
  return parts.join("\n");
}

/** Blocks left out with their content (an unclosed one runs to the end of the text). */
const BLOCKS = [
  "permissions instructions",
  "environment_context",
  "user_instructions",
  "INSTRUCTIONS",
  "system-reminder",
  "skill",
  "task-notification",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
  "command-message",
  "ide_selection",
  "ide_opened_file",
];
const BLOCK_RES = BLOCKS.map((tag) => new RegExp(`<${tag}(?:\\s[^>]*)?>[\\s\\S]*?(?:</${tag}>|$)`, "g"));

/** A prompt's text with agent markup left out; "" when nothing a person wrote is left. */
export function cleanPromptText(text: string): string {
  let out = text;
  for (const re of BLOCK_RES) out = out.replace(re, " ");
  out = out
    .replace(/<command-name>([\s\S]*?)<\/command-name>/g, " $1 ")
    .replace(/<command-args>([\s\S]*?)<\/command-args>/g, " $1 ")
    .replace(/^\s*# AGENTS\.md instructions for \S*/, " ");
  return out.replace(/\s+/g, " ").trim();
}

/**
 * A prompt's line as a map or a list names it: its first line with agent markup left out
 * (`cleanPromptText`: "/review-pr 5" for a Claude Code command), or, when only markup is left,
 * the first block's name in brackets ("[task notification]", "[local command stdout]").
 */
export function promptLine(text: string): string {
  const first = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const clean = cleanPromptText(/<[a-z_ -]+(?:\s[^>]*)?>/i.test(first) ? text : first);
  if (clean !== "") return clean;
  const tag = /<([a-z_ -]+)(?:\s[^>]*)?>/i.exec(text)?.[1];
  return tag ? `[${tag.replace(/[_-]/g, " ").trim()}]` : "";
}

/** "/mode", "/clear": a slash command with nothing after it. */
export function isLoneSlashCommand(text: string): boolean {
  return /^\/[^\s/]+$/.test(text);
}

/** Offered the user messages in order; `title` is the best so far, `done` once no later one can win. */
export class PromptTitle {
  private prompt: string | undefined;
  private command: string | undefined;

  offer(message: UserMessage): void {
    if (this.prompt !== undefined || message.synthetic === true) return;
    const text = cleanPromptText(userMessageText(message));
    if (text === "") return;
    if (isLoneSlashCommand(text)) this.command ??= text;
    else this.prompt = text;
  }

  get done(): boolean {
    return this.prompt !== undefined;
  }

  get title(): string | undefined {
    return this.prompt ?? this.command;
  }
}
