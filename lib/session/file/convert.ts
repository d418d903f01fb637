/**
 * convertToLlm: working-context messages → the messages an LLM receives (session-engine.md §3).
 * Pure: no network, disk or database access.
 *
 * Contract: each input message maps to at most one `user`, `assistant` or `toolResult` message,
 * in order, and every output keeps the source `timestamp`. Roles the model cannot take
 * (bash/python executions, custom messages, summaries, file mentions) become user messages;
 * unknown roles are dropped. Inputs are never mutated.
 *
 * Incremental: a message's converted form is computed once per message object (and prompt set)
 * and the SAME object is returned on later calls, so the per-object caches downstream (the
 * provider prompt, lib/llm/provider-prompt.ts; the recorder's content hashes) hold across turns
 * for derived messages too (summaries, pruned results, executions). Sound because messages in a
 * session tree are never mutated (a prune replaces its objects); callers must not mutate the
 * returned messages.
 */
import { renderTemplate } from "@/lib/session/prompt-template";
import type {
  AgentMessage,
  BashExecutionMessage,
  FileMentionMessage,
  ImageContent,
  LlmMessage,
  PromptSet,
  PythonExecutionMessage,
  TextContent,
  ToolResultMessage,
  UserMessage,
} from "@/lib/session/types";

/** Stand-in text for a pruned tool result that kept no text (session-engine.md §3). */
export const PRUNED_OUTPUT_FALLBACK = "[Output truncated]";

/** Per prompt set, each message's converted form (null: no LLM form), computed once. */
const memo = new WeakMap<PromptSet, WeakMap<AgentMessage, LlmMessage | null>>();

export function convertToLlm(messages: AgentMessage[], prompts: PromptSet): LlmMessage[] {
  let seen = memo.get(prompts);
  if (!seen) {
    seen = new WeakMap();
    memo.set(prompts, seen);
  }
  const out: LlmMessage[] = [];
  for (const message of messages) {
    let converted = seen.get(message);
    if (converted === undefined) {
      converted = convertOne(message, prompts) ?? null;
      seen.set(message, converted);
    }
    if (converted) out.push(converted);
  }
  return out;
}

function convertOne(message: AgentMessage, prompts: PromptSet): LlmMessage | undefined {
  switch (message.role) {
    case "user":
    case "assistant":
      return message;
    case "toolResult":
      return message.prunedAt === undefined ? message : prunedToolResult(message);
    case "bashExecution":
      return message.excludeFromContext ? undefined : textUser(bashExecutionToText(message), message.timestamp);
    case "pythonExecution":
      return message.excludeFromContext ? undefined : textUser(pythonExecutionToText(message), message.timestamp);
    case "custom":
    case "hookMessage":
      return {
        role: "user",
        content: typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content,
        timestamp: message.timestamp,
      };
    case "branchSummary":
      return textUser(renderTemplate(prompts.branchSummaryContext, { summary: message.summary }), message.timestamp);
    case "compactionSummary":
      return textUser(
        renderTemplate(prompts.compactionSummaryContext, { summary: message.summary }),
        message.timestamp,
      );
    case "fileMention":
      return fileMentionToUser(message);
    default:
      // Unknown roles (e.g. from a newer writer) have no LLM form (session-engine.md §3 "anything else").
      return undefined;
  }
}

function textUser(text: string, timestamp: number): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** A pruned result sends only its remaining text, never images (session-engine.md §3, §8). */
function prunedToolResult(message: ToolResultMessage): ToolResultMessage {
  const text = message.content
    .filter((block): block is TextContent => block.type === "text")
    .map((block) => block.text)
    .join("");
  return { ...message, content: [{ type: "text", text: text || PRUNED_OUTPUT_FALLBACK }] };
}

/** Exit codes null, undefined and 0 add no line (session-engine.md §3). */
function hasFailureCode(exitCode: number | null | undefined): exitCode is number {
  return exitCode !== null && exitCode !== undefined && exitCode !== 0;
}

/** The user-visible text of a `!command` run (session-engine.md §3 "bashExecution text"). */
export function bashExecutionToText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
  if (message.cancelled) text += "\n\n(command cancelled)";
  else if (hasFailureCode(message.exitCode)) text += `\n\nCommand exited with code ${message.exitCode}`;
  return text + formatOutputNotice(message.meta);
}

/** The user-visible text of a Python cell run (session-engine.md §3 "pythonExecution text"). */
export function pythonExecutionToText(message: PythonExecutionMessage): string {
  let text = `Ran Python:\n\`\`\`python\n${message.code}\n\`\`\`\n`;
  text += message.output ? `Output:\n\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
  if (message.cancelled) text += "\n\n(execution cancelled)";
  else if (hasFailureCode(message.exitCode)) text += `\n\nExecution failed with code ${message.exitCode}`;
  return text + formatOutputNotice(message.meta);
}

/**
 * Notice for oh-my-pi's output `meta` (session-engine.md §3 step 4). Our own, deliberately small format; pi
 * files never carry `meta`, so this only matters for oh-my-pi sessions:
 * - no notice unless `meta.truncation` is an object;
 * - with numeric `outputLines` and `totalLines`: `"\n\n[Output truncated: showing X of Y lines]"`;
 * - else with numeric `outputBytes` and `totalBytes`: the same wording with `bytes`;
 * - else `"\n\n[Output truncated]"`;
 * - a non-empty string `artifactId` (where the full output was saved) appends
 *   `" Full output: <id>"` after the closing bracket.
 */
export function formatOutputNotice(meta: unknown): string {
  if (!isRecord(meta) || !isRecord(meta.truncation)) return "";
  const t = meta.truncation;
  let notice = "[Output truncated]";
  if (isCount(t.outputLines) && isCount(t.totalLines)) {
    notice = `[Output truncated: showing ${t.outputLines} of ${t.totalLines} lines]`;
  } else if (isCount(t.outputBytes) && isCount(t.totalBytes)) {
    notice = `[Output truncated: showing ${t.outputBytes} of ${t.totalBytes} bytes]`;
  }
  if (typeof t.artifactId === "string" && t.artifactId) notice += ` Full output: ${t.artifactId}`;
  return `\n\n${notice}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** Mentioned files go in one system-reminder block; their images follow it (session-engine.md §3). */
function fileMentionToUser(message: FileMentionMessage): UserMessage {
  const body = message.files
    .map((f) => `<file path="${f.path}">${f.content ? `\n${f.content}\n` : "\n"}</file>`)
    .join("\n\n");
  const content: (TextContent | ImageContent)[] = [
    { type: "text", text: `<system-reminder>\n${body}\n</system-reminder>` },
  ];
  for (const f of message.files) if (f.image) content.push(f.image);
  return { role: "user", content, timestamp: message.timestamp };
}
