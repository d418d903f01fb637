/**
 * Codex calls and their answers: which calls of a rollout still wait for an output, and what
 * answers them when the turn moves on (docs/formats.md "Codex CLI", "Calls without an output").
 * Pure: no network, disk or database access. The mapper (codex/map.ts) builds the entries.
 *
 * Contract:
 * - `called(id, name, line)` when a call item is read; `answeredBy(id)` when its output item is.
 * - `mcpEnd(payload)` for an `mcp_tool_call_end` event: "pending" when it names a call still
 *   waiting (its result is kept as that call's answer should no output item come), "answered"
 *   when the call has its answer or there is no call id, "unknown" when no call item named it
 *   (newer rollouts record some MCP calls only as this event).
 * - `settle()` when the turn moves on: every call still waiting, in call order, with the answer
 *   it gets — its MCP result, else an explicit error "no result recorded" — and a note for the
 *   latter. Afterwards nothing waits.
 * Memory: one id per call of the rollout.
 */
import { mcpResultOf, type ToolOutput } from "./items";
import type { FormatNote, JsonObject } from "@/lib/formats/types";
import { str } from "@/lib/formats/types";

/** The text of the result Arbor gives a call the rollout never answered. */
export const NO_RESULT_RECORDED = "No result recorded: the Codex rollout has no output for this call";

export interface SettledCall {
  callId: string;
  line: number;
  output: ToolOutput;
  /** What answered it, kept on the entry's `source.synthetic`. */
  by: "mcp_tool_call_end" | "no output in the rollout";
}

export class CodexCalls {
  /** Calls without an output yet, in call order: their name and line. */
  private readonly pending = new Map<string, { name: string; line: number }>();
  private readonly answered = new Set<string>();
  private readonly mcpResults = new Map<string, ToolOutput>();
  readonly notes: FormatNote[] = [];

  called(id: string, name: string, line: number): void {
    if (!this.answered.has(id)) this.pending.set(id, { name, line });
  }

  answeredBy(id: string): void {
    this.pending.delete(id);
    this.mcpResults.delete(id);
    this.answered.add(id);
  }

  mcpEnd(payload: JsonObject): "pending" | "answered" | "unknown" {
    const id = str(payload.call_id);
    if (id === undefined || this.answered.has(id)) return "answered";
    if (!this.pending.has(id)) return "unknown";
    this.mcpResults.set(id, mcpResultOf(payload));
    return "pending";
  }

  settle(): SettledCall[] {
    const out: SettledCall[] = [];
    for (const [callId, call] of this.pending) {
      const mcp = this.mcpResults.get(callId);
      if (mcp) out.push({ callId, line: call.line, output: mcp, by: "mcp_tool_call_end" });
      else {
        out.push({ callId, line: call.line, output: { content: [{ type: "text", text: NO_RESULT_RECORDED }], isError: true }, by: "no output in the rollout" });
        this.notes.push({ line: call.line, message: `call ${callId} (${call.name}) has no output in the rollout: answered "no result recorded"` });
      }
      this.answered.add(callId);
    }
    this.pending.clear();
    this.mcpResults.clear();
    return out;
  }
}
