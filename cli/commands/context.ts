/**
 * `context FILE [--leaf ID] [--llm] [--json]`: the LLM context of a branch (session-engine.md §2) as
 * `{ messages, thinkingLevel, models }`; with `--llm`, the messages after convertToLlm
 * (session-engine.md §3) using the project's prompt templates (session-engine.md §17).
 */
import path from "node:path";
import { parseArgs } from "@/cli/args";
import { CliError, type CliCommand, EXIT_FAILURE, EXIT_OK, writeJson } from "@/cli/command";
import { readSessionFile, resolveLeaf } from "@/cli/session-file";
import { loadPrompts } from "@/lib/llm/prompts";
import { buildSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/file/convert";
import { contentText, normalizeRowText } from "@/lib/session/tree/tree-row-text";
import type { AgentMessage, PromptSet } from "@/lib/session/types";
import { errorText } from "@/lib/text/error-text";

const spec = {
  positionals: ["FILE"],
  options: { leaf: { type: "string" }, llm: { type: "boolean" }, json: { type: "boolean" } },
} as const;

/** The repository's prompts/, found from this file so the CLI works from any directory. */
const PROMPTS_DIR = path.resolve(import.meta.dirname, "../../prompts");

function prompts(): PromptSet {
  try {
    return loadPrompts(PROMPTS_DIR);
  } catch (err) {
    const first = errorText(err).split("\n")[0];
    throw new CliError(`cannot load prompt templates: ${first}`, EXIT_FAILURE);
  }
}

const PREVIEW = 100;

/** One readable line per message: role, then a short preview of what it carries. */
export function previewMessage(m: AgentMessage): string {
  const clip = (s: string) => {
    const t = normalizeRowText(s);
    return t.length > PREVIEW ? `${t.slice(0, PREVIEW)}…` : t;
  };
  switch (m.role) {
    case "assistant": {
      const calls = m.content.filter((b) => b.type === "toolCall").map((b) => b.name);
      const text = clip(contentText(m.content, PREVIEW + 1));
      return `assistant [${m.stopReason}]: ${text}${calls.length ? ` {calls: ${calls.join(", ")}}` : ""}`;
    }
    case "toolResult":
      return `toolResult ${m.toolName}${m.isError ? " (error)" : ""}: ${contentText(m.content).length} chars`;
    case "bashExecution":
      return `bashExecution: ${clip(m.command)}`;
    case "compactionSummary":
    case "branchSummary":
      return `${m.role}: ${clip(m.summary)}`;
    case "user":
    case "custom":
    case "hookMessage":
      return `${m.role}: ${clip(contentText(m.content, PREVIEW + 1))}`;
    default:
      return m.role;
  }
}

export const contextCommand: CliCommand = {
  name: "context",
  summary: "the LLM context of a branch (buildSessionContext)",
  usage: [
    "context FILE [--leaf ID] [--llm] [--json]",
    "  Prints { messages, thinkingLevel, models } for the path root → leaf",
    "  (default leaf: the last entry). --llm converts the messages with convertToLlm.",
  ],
  run(argv, io) {
    const { positionals, options } = parseArgs(argv, spec);
    const session = readSessionFile(positionals[0]!, io);
    const leafId = resolveLeaf(session, options.leaf);
    const ctx = buildSessionContext(session.entries, leafId, session.tree.getIndex());
    const messages: AgentMessage[] = options.llm ? convertToLlm(ctx.messages, prompts()) : ctx.messages;
    if (options.json) {
      writeJson(io, { messages, thinkingLevel: ctx.thinkingLevel, models: ctx.models });
      return EXIT_OK;
    }
    const models = Object.entries(ctx.models).map(([role, model]) => `${role}=${model}`);
    const lines = [
      `leaf: ${leafId ?? "(none)"}`,
      `thinkingLevel: ${ctx.thinkingLevel}`,
      `models: ${models.length ? models.join(", ") : "(none)"}`,
      `messages: ${messages.length}${options.llm ? " (after convertToLlm)" : ""}`,
      ...messages.map((m, i) => `#${i} ${previewMessage(m)}`),
      "",
    ];
    io.out(lines.join("\n"));
    return EXIT_OK;
  },
};
