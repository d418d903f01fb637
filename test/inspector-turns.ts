/**
 * Sessions with recorded model calls for the inspector's tests: `turn` appends a user prompt
 * and its answer the way the agent does, recording the chat call in between when `recorded`.
 */
import type { AgentModelInfo, ModelCallRecord } from "@/lib/agent/ports";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import { recordModelCall } from "@/lib/db/model-calls/model-calls";
import { appendEntries, loadEntries } from "@/lib/db";
import { buildSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/file/convert";
import { userMsg } from "@/test/session-factories";
import type { AssistantMessage } from "@/lib/session/types";

export const MODEL: AgentModelInfo = { provider: "fake", id: "m", ref: "fake/m", contextWindow: 10_000, maxOutputTokens: 1000, reasoning: false };

/** Appends a user prompt and, through a recorded chat call, its answer (like the agent does). */
export async function turn(sessionId: string, leaf: string | null, prompt: string, answer: AssistantMessage, recorded: boolean): Promise<string> {
  const u = await appendEntries({ sessionId, expectedLeafId: leaf, entries: [{ type: "message", message: userMsg(prompt, { timestamp: answer.timestamp - 1 }) }] });
  const entries = await loadEntries({ sessionId });
  const sent = convertToLlm(buildSessionContext(entries, u.leafId).messages, TEST_PROMPTS);
  if (recorded) {
    const call: ModelCallRecord = {
      kind: "chat",
      model: MODEL,
      request: { system: "SYS", messages: sent, tools: [{ name: "ls", description: "List", inputSchema: {} }], maxOutputTokens: 1000 },
      response: { message: answer, usage: answer.usage, stopReason: answer.stopReason },
      startedAt: answer.timestamp - 1,
      durationMs: 12,
    };
    await recordModelCall({ sessionId, call });
  }
  const a = await appendEntries({ sessionId, expectedLeafId: u.leafId, entries: [{ type: "message", message: answer }] });
  return a.leafId!;
}
