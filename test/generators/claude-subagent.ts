/**
 * Seeded synthetic Claude Code subagent files (`<sessionId>/subagents/agent-<agentId>.jsonl`),
 * our own, for tests and e2e. Pure: no network, disk or database access.
 *
 * A subagent file is a sidechain: every record has `isSidechain: true`, the PARENT's
 * `sessionId` and the subagent's `agentId`. It holds the Task prompt, then responses with tool
 * calls and results, and a final answer. `expected` counts what the mapping must find.
 */
import { Rng } from "@/lib/random";
import { sentence } from "@/test/generators/text";
import { emptyCounts, type SessionCounts } from "@/lib/formats/count";

export interface GeneratedSubagent {
  agentId: string;
  /** Path relative to the parent file's folder. */
  relativePath: string;
  text: string;
  expected: SessionCounts;
  /** The final answer, which the parent's Task result repeats. */
  answer: string;
}

export function generateClaudeCodeSubagent(opts: { seed: number; sessionId: string; agentId: string; prompt: string; start: number }): GeneratedSubagent {
  const rng = Rng.seeded(opts.seed);
  const expected = emptyCounts();
  const lines: string[] = [];
  let clock = opts.start;
  let tail: string | null = null;
  const add = (rec: Record<string, unknown>) => {
    const uuid = rng.uuid();
    clock += rng.int(100, 2000);
    lines.push(
      JSON.stringify({ parentUuid: tail, isSidechain: true, userType: "external", cwd: "/home/dev/project", sessionId: opts.sessionId, version: "2.0.14", gitBranch: "main", agentId: opts.agentId, ...rec, uuid, timestamp: new Date(clock).toISOString() }),
    );
    tail = uuid;
  };
  const usage = () => ({ input_tokens: rng.int(5, 50), cache_creation_input_tokens: rng.int(0, 500), cache_read_input_tokens: rng.int(100, 5000), output_tokens: rng.int(20, 300) });
  add({ type: "user", message: { role: "user", content: opts.prompt } });
  expected.prompts += 1;
  const calls = rng.int(1, 3);
  for (let i = 0; i < calls; i++) {
    const id = `msg_${rng.hex(20)}`;
    const toolId = `toolu_${rng.hex(20)}`;
    add({ type: "assistant", message: { id, type: "message", role: "assistant", model: "claude-haiku-4-5", content: [{ type: "tool_use", id: toolId, name: "Grep", input: { pattern: `p${i}` } }], stop_reason: "tool_use", usage: usage() } });
    expected.assistants += 1;
    expected.toolCalls += 1;
    const out = sentence(rng);
    add({ type: "user", message: { role: "user", content: [{ tool_use_id: toolId, type: "tool_result", content: out }] }, toolUseResult: { stdout: out, stderr: "" } });
    expected.toolResults += 1;
  }
  const answer = `Subagent ${opts.agentId}: ${sentence(rng)}`;
  add({ type: "assistant", message: { id: `msg_${rng.hex(20)}`, type: "message", role: "assistant", model: "claude-haiku-4-5", content: [{ type: "text", text: answer }], stop_reason: "end_turn", usage: usage() } });
  expected.assistants += 1;
  return { agentId: opts.agentId, relativePath: `${opts.sessionId}/subagents/agent-${opts.agentId}.jsonl`, text: `${lines.join("\n")}\n`, expected, answer };
}
