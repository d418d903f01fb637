/**
 * The shape every workspace tool file exports. A tool validates nothing itself: the registry
 * parses `arguments` with `schema` first, so `run` receives typed arguments, and sends the
 * model the JSON Schema generated from that same zod schema (one definition of the arguments). `run` throws a
 * ToolError for expected failures (the registry reports them as `isError` results) and honours
 * `ctx.signal` (aborting rejects with an AbortError).
 */
import type { z } from "zod";
import type { ToolLimits } from "./limits";

export const TOOL_NAMES = ["read", "write", "edit", "ls", "find", "grep"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolContext {
  /** The workspace root as a real absolute path. */
  root: string;
  limits: ToolLimits;
  signal: AbortSignal;
}

export interface ToolOutput {
  text: string;
  details?: unknown;
}

export interface WorkspaceTool<S extends z.ZodType = z.ZodType> {
  name: ToolName;
  description: string;
  /** The arguments, each field `.describe`d: the model gets its JSON Schema (registry.ts). */
  schema: S;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
}
