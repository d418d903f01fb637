/**
 * Tool calls, tool outputs and usage figures for the synthetic session generator
 * (session.ts). Pure: no network, disk or database access; all randomness comes from the
 * caller's seeded `Rng`. The tool mix follows the shared fixture: about half bash, a third
 * edit, the rest read and a little write, with `path` / `command` arguments.
 */
import type { Rng } from "@/lib/random";
import { bashCommand, outputLength, poolSlice, sentence } from "@/test/generators/text";
import type { AssistantMessage, ToolCall, Usage } from "@/lib/session/types";

/** Material shared by one session's generated tool traffic. */
export interface ToolMaterial {
  rng: Rng;
  paths: readonly string[];
  /** Code-like text that outputs and edits are sliced from. */
  pool: string;
}

/** A tool call; `serial` makes the id unique within the session. */
export function makeToolCall({ rng, paths, pool }: ToolMaterial, serial: number): ToolCall {
  const path = rng.pick(paths);
  const id = `toolu_${rng.hex(12)}${serial.toString(36)}`;
  const r = rng.next();
  if (r < 0.49) {
    const args: Record<string, unknown> = { command: bashCommand(rng, path) };
    if (rng.chance(0.35)) args.timeout = rng.pick([30, 60, 120]);
    return { type: "toolCall", id, name: "bash", arguments: args };
  }
  if (r < 0.86) {
    const oldText = poolSlice(rng, pool, rng.int(20, 400));
    const newText = poolSlice(rng, pool, rng.int(20, 400));
    return { type: "toolCall", id, name: "edit", arguments: { path, oldText, newText } };
  }
  if (r < 0.98) {
    const args: Record<string, unknown> = { path };
    if (rng.chance(0.5)) Object.assign(args, { offset: rng.int(1, 400), limit: rng.pick([50, 100, 200]) });
    return { type: "toolCall", id, name: "read", arguments: args };
  }
  return { type: "toolCall", id, name: "write", arguments: { path, content: poolSlice(rng, pool, 600) } };
}

/** The toolResult message answering `call` (without `timestamp`). */
export function makeToolResult({ rng, pool }: ToolMaterial, call: ToolCall) {
  const path = String(call.arguments.path ?? "");
  const isError = rng.chance(0.04);
  let text: string;
  if (isError) text = `Error: ${sentence(rng, 4, 10)}`;
  else if (call.name === "edit") text = `Successfully replaced text in ${path}.`;
  else if (call.name === "write") text = `Successfully wrote ${rng.int(100, 9_000)} bytes to ${path}`;
  else text = poolSlice(rng, pool, outputLength(rng, call.name));
  return { role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text }], isError };
}

/** Characters an assistant message counts for (the session-engine.md §4 estimateTokens rule). */
export function assistantChars(content: AssistantMessage["content"]): number {
  let chars = 0;
  for (const b of content) {
    if (b.type === "text") chars += b.text.length;
    else if (b.type === "thinking") chars += b.thinking.length;
    else chars += b.name.length + JSON.stringify(b.arguments).length;
  }
  return chars;
}

export const ZERO_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };

/**
 * Usage that looks like prompt caching: what the previous call saw (`previousContext`) is read
 * from cache, what was added since is written, and a small uncached input remains. A rare
 * cache miss writes the whole prompt.
 */
export function makeUsage(rng: Rng, promptTokens: number, previousContext: number, output: number): Usage {
  const input = rng.int(1, 12);
  const cacheRead = rng.chance(0.08) ? 0 : Math.min(previousContext, promptTokens);
  const cacheWrite = Math.max(0, promptTokens - cacheRead);
  const cost = {
    input: input * 3e-6,
    output: output * 15e-6,
    cacheRead: cacheRead * 0.3e-6,
    cacheWrite: cacheWrite * 3.75e-6,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}
