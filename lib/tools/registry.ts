/**
 * The workspace tools as an `AgentTools` port (lib/agent/ports.ts): `definitions` for the model
 * and `execute(call, signal)` for the agent loop.
 * `execute` never throws: an unknown or disabled tool, invalid arguments (the message names the
 * field), a ToolError, a file-system error, an abort and even an unexpected bug all come back as
 * `{ isError: true }` results with a readable message. There is deliberately no shell tool:
 * everything a tool touches goes through safePath (lib/tools/workspace.ts).
 */
import "server-only";
import { realpath } from "node:fs/promises";
import { z } from "zod";
import type { AgentToolDefinition, AgentTools, ToolExecutionResult } from "@/lib/agent/ports";
import type { ToolCall } from "@/lib/session/types";
import { editTool } from "./edit";
import { isAbortError, quotePath, ToolError, toolErrorFromFs } from "./errors";
import { findTool } from "./find";
import { grepTool } from "./grep";
import { type ToolLimits, resolveLimits } from "./limits";
import { lsTool } from "./ls";
import { readTool } from "./read";
import { TOOL_NAMES, type ToolName, type WorkspaceTool } from "./types";
import { writeTool } from "./write";
import { errorText } from "@/lib/text/error-text";

export type { ToolName } from "./types";
export { TOOL_NAMES } from "./types";

// Each tool is typed by its own schema; the registry only needs the erased form.
const ALL_TOOLS: Record<ToolName, WorkspaceTool> = {
  read: readTool as unknown as WorkspaceTool,
  write: writeTool as unknown as WorkspaceTool,
  edit: editTool as unknown as WorkspaceTool,
  ls: lsTool as unknown as WorkspaceTool,
  find: findTool as unknown as WorkspaceTool,
  grep: grepTool as unknown as WorkspaceTool,
};

export interface WorkspaceToolsOptions {
  /** The session's workspace (from resolveWorkspace). */
  root: string;
  /** The per-session switch: tools offered to the model; all of TOOL_NAMES by default. */
  enabled?: readonly ToolName[];
  /** Overrides of DEFAULT_LIMITS. */
  limits?: Partial<ToolLimits>;
}

export interface WorkspaceTools extends AgentTools {
  /** The enabled tool names, in TOOL_NAMES order. */
  readonly enabled: readonly ToolName[];
  execute(call: ToolCall, signal: AbortSignal): Promise<ToolExecutionResult & { isError: boolean }>;
}

function failure(text: string, details?: unknown): ToolExecutionResult & { isError: boolean } {
  return details === undefined
    ? { content: [{ type: "text", text }], isError: true }
    : { content: [{ type: "text", text }], isError: true, details };
}

function describeIssues(name: string, error: z.ZodError): string {
  const issues = error.issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join(".") : "(arguments)";
    return `${field}: ${i.message}`;
  });
  return `Invalid arguments for ${name}: ${issues.join("; ")}`;
}

/**
 * The JSON Schema of a tool's arguments as the model gets it: generated from the zod schema the
 * registry parses with (draft 2020-12, `additionalProperties: false`), without the `$schema`
 * tag: the provider gets the arguments' shape only.
 */
export function toolInputSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _tag, ...json } = z.toJSONSchema(schema);
  return json;
}

const definitionSets = new Map<string, readonly AgentToolDefinition[]>();

/**
 * The definitions of the enabled tools, built once per distinct set and shared by every agent
 * after that (frozen: nobody may change them). Converting the zod schemas to JSON Schema costs
 * milliseconds, and a stable array lets the provider-side tool list be cached per array
 * (lib/llm/stream-assistant.ts toProviderTools). At most 2^6 sets exist, so the map is bounded.
 */
function definitionsOf(enabled: readonly ToolName[]): readonly AgentToolDefinition[] {
  const key = enabled.join(",");
  let set = definitionSets.get(key);
  if (!set) {
    set = Object.freeze(
      enabled.map((n) => Object.freeze({ name: n, description: ALL_TOOLS[n].description, inputSchema: toolInputSchema(ALL_TOOLS[n].schema) })),
    );
    definitionSets.set(key, set);
  }
  return set;
}

function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

/**
 * Builds the tools for one workspace.
 * @throws Error (a programming error, not a tool result) when `enabled` names an unknown tool.
 */
export function createWorkspaceTools(opts: WorkspaceToolsOptions): WorkspaceTools {
  const requested = opts.enabled ?? TOOL_NAMES;
  for (const n of requested) if (!isToolName(n)) throw new Error(`createWorkspaceTools: unknown tool "${n}"`);
  const enabled = TOOL_NAMES.filter((n) => requested.includes(n));
  const limits = resolveLimits(opts.limits);
  const definitions = definitionsOf(enabled);

  async function execute(call: ToolCall, signal: AbortSignal) {
    if (!isToolName(call.name)) {
      return failure(`Unknown tool ${quotePath(call.name)}. Available tools: ${enabled.join(", ")}`);
    }
    if (!enabled.includes(call.name)) {
      return failure(`Tool ${quotePath(call.name)} is not enabled for this session. Available tools: ${enabled.join(", ")}`);
    }
    const tool = ALL_TOOLS[call.name];
    const parsed = tool.schema.safeParse(call.arguments ?? {});
    if (!parsed.success) return failure(describeIssues(call.name, parsed.error));
    if (signal.aborted) return failure(`Tool call ${call.name} aborted`, { aborted: true });

    let root: string;
    try {
      root = await realpath(opts.root);
    } catch {
      return failure(`The workspace folder ${quotePath(opts.root)} is missing`);
    }
    try {
      const out = await tool.run(parsed.data, { root, limits, signal });
      const result = { content: [{ type: "text" as const, text: out.text }], isError: false };
      return out.details === undefined ? result : { ...result, details: out.details };
    } catch (error) {
      if (error instanceof ToolError) return failure(error.message);
      if (isAbortError(error) || signal.aborted) return failure(`Tool call ${call.name} aborted`, { aborted: true });
      const argPath = (parsed.data as { path?: unknown }).path;
      const fsError = toolErrorFromFs(error, typeof argPath === "string" ? argPath : ".");
      if (fsError) return failure(fsError.message);
      const message = errorText(error);
      return failure(`Tool ${call.name} failed unexpectedly: ${message}`);
    }
  }

  return { definitions, enabled, execute };
}
