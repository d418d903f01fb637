/**
 * The model and tool shapes the agent's ports and the inspector's wire types share (types only;
 * lib/agent/ports.ts re-exports them).
 */
import type { SummarizeRequest } from "@/lib/compaction/summarize-types";

/** What the agent reads about a model (lib/llm `ModelInfo` satisfies it). */
export interface AgentModelInfo {
  provider: string;
  id: string;
  /** "provider/modelId". */
  ref: string;
  label?: string;
  /** Tokens; 0 or less means unknown (no threshold compaction, no usage gauge). */
  contextWindow: number;
  maxOutputTokens: number;
  /** Whether the model accepts reasoning settings (session-engine.md §6.3). */
  reasoning: boolean;
  /** The labelled offline model (conventions rule 6). */
  offline?: boolean;
}

/** A tool the model may call (session-engine.md §3 hand-off). `inputSchema` is a JSON Schema object. */
export interface AgentToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Which kind of call a recorded model call was: a chat step or one of the summarization calls. */
export type ModelCallKind = "chat" | SummarizeRequest["kind"];
