/**
 * runTurns: one agent run — call the model, save its message, run its tool calls, call the
 * model again — until a response has no tool calls to run.
 *
 * Contract:
 * - Each model call is a turn: turn_start, the `context` hook (session-engine.md §12: its `messages`
 *   replace what is sent), convertToLlm (§3), `model.stream`, then the assistant message is
 *   appended and committed at once (so an aborted, partial message is saved too, with
 *   stopReason "aborted"), then turn_end with the tool results.
 * - `opening` is the commit of what started the run (run-loop.ts), which the first model call
 *   overlaps. It is awaited before the call is recorded or its message appended; if it fails,
 *   the call is aborted, nothing of it is recorded or appended, and the commit's error is thrown.
 * - Tool calls run one at a time, in order; each result is appended and committed before the
 *   next call runs. A tool that throws gives an `isError` result. After an abort, the remaining
 *   calls get an `isError` "aborted" result without running, so every tool call keeps its result
 *   (session-engine.md §3: calls and results stay adjacent).
 * - At most `maxSteps` model calls per run; hitting the cap emits an `error` event and ends the
 *   run normally (the post-run checks still see the last message).
 * - `overflowRecoveryAttempted` is cleared when an assistant finishes with a stopReason other
 *   than "error" (session-engine.md §13.2). Decision: a silent overflow (§14 case 2) does not clear it, or a
 *   provider that keeps accepting over-long prompts would loop through recoveries.
 */
import { linkedController } from "@/lib/agent/abort";
import { errorText } from "@/lib/text/error-text";
import type { AgentModel, ModelStreamRequest } from "@/lib/agent/ports";
import { safeRecord } from "@/lib/agent/recording";
import type { AgentRuntime } from "@/lib/agent/runtime";
import { isContextOverflow } from "@/lib/compaction/overflow";
import { convertToLlm } from "@/lib/session/file/convert";
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@/lib/session/types";

const ZERO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };

/** Stands in for a response when `stream` broke its never-throw contract. */
function failedMessage(model: AgentModel, err: unknown, aborted: boolean, now: number): AssistantMessage {
  const message: AssistantMessage = {
    role: "assistant",
    content: [],
    provider: model.info.provider,
    model: model.info.id,
    usage: { ...ZERO_USAGE },
    stopReason: aborted ? "aborted" : "error",
    timestamp: now,
  };
  if (!aborted) message.errorMessage = errorText(err);
  return message;
}

async function callModel(rt: AgentRuntime, model: AgentModel, signal: AbortSignal, opening?: Promise<unknown>): Promise<AssistantMessage> {
  let messages = rt.working.messages();
  if (rt.hooks.hasHandlers("context")) {
    const result = await rt.hooks.emit({ type: "context", messages: [...messages] }, rt.hookContext);
    if (result?.messages) messages = result.messages;
  }
  const tools = rt.tools?.definitions.length ? rt.tools.definitions : undefined;
  // A failed opening commit stops the call at once (its result is thrown below).
  const { controller, unlink } = linkedController(signal);
  opening?.catch(() => controller.abort());
  const request: ModelStreamRequest = {
    messages: convertToLlm(messages, rt.prompts),
    signal: controller.signal,
    onDelta: (delta) => rt.emit({ type: "message_delta", delta }),
  };
  if (rt.systemPrompt !== undefined) request.system = rt.systemPrompt;
  if (tools) request.tools = tools;
  if (rt.maxOutputTokens !== undefined) request.maxOutputTokens = rt.maxOutputTokens;

  rt.emit({ type: "message_start", role: "assistant", provider: model.info.provider, model: model.info.id });
  const startedAt = rt.now();
  let message: AssistantMessage;
  try {
    message = await model.stream(request);
  } catch (err) {
    message = failedMessage(model, err, controller.signal.aborted, rt.now());
  } finally {
    unlink();
  }
  await opening;
  const response: Parameters<typeof safeRecord>[1]["response"] = {
    message,
    usage: message.usage,
    stopReason: message.stopReason,
  };
  if (message.errorMessage !== undefined) response.errorMessage = message.errorMessage;
  safeRecord(
    rt.recorder,
    {
      kind: "chat",
      model: model.info,
      request: { system: request.system, messages: request.messages, tools, maxOutputTokens: request.maxOutputTokens },
      response,
      startedAt,
      durationMs: rt.now() - startedAt,
    },
    rt.log,
  );
  return message;
}

async function executeTool(rt: AgentRuntime, call: ToolCall, signal: AbortSignal): Promise<ToolResultMessage> {
  const result: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [],
    isError: false,
    timestamp: 0,
  };
  if (signal.aborted || !rt.tools) {
    result.content = [{ type: "text", text: `Tool call ${call.name} aborted` }];
    result.isError = true;
  } else {
    try {
      const out = await rt.tools.execute(call, signal);
      result.content = typeof out.content === "string" ? [{ type: "text", text: out.content }] : out.content;
      result.isError = out.isError === true;
      if (out.details !== undefined) result.details = out.details;
    } catch (err) {
      result.content = [{ type: "text", text: errorText(err) }];
      result.isError = true;
    }
  }
  result.timestamp = rt.now();
  return result;
}

/** Runs model calls and tools until the model stops; resolves with the last assistant message. */
export async function runTurns(rt: AgentRuntime, signal: AbortSignal, opening?: Promise<unknown>): Promise<AssistantMessage | undefined> {
  // Handled here so a failure is never unhandled; the first callModel awaits and rethrows it.
  opening?.catch(() => undefined);
  try {
    return await turnLoop(rt, signal, opening);
  } finally {
    // A run that ended before its first model call still leaves with its opening commit done.
    await opening?.catch(() => undefined);
  }
}

async function turnLoop(rt: AgentRuntime, signal: AbortSignal, opening: Promise<unknown> | undefined): Promise<AssistantMessage | undefined> {
  let last: AssistantMessage | undefined;
  for (let step = 0; ; step++) {
    const model = rt.model;
    if (!model) throw new Error("No model selected");
    if (step >= rt.maxSteps) {
      rt.emit({
        type: "error",
        message: `Stopped after ${rt.maxSteps} model calls in one run: the model kept calling tools.`,
      });
      return last;
    }

    const turnIndex = rt.state.turnIndex++;
    await rt.lifecycle({ type: "turn_start", turnIndex, timestamp: rt.now() });
    const message = await callModel(rt, model, signal, step === 0 ? opening : undefined);
    const entryId = rt.tree.appendMessage(message);
    await rt.persist(() => rt.emit({ type: "message_end", message, entryId }));
    if (message.stopReason !== "error" && !isContextOverflow(message, model.info.contextWindow)) {
      rt.state.overflowRecoveryAttempted = false;
    }
    last = message;

    const toolResults: ToolResultMessage[] = [];
    const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
    if (message.stopReason === "toolUse" && rt.tools && calls.length > 0) {
      for (const call of calls) {
        rt.emit({ type: "tool_start", toolCall: call });
        const result = await executeTool(rt, call, signal);
        const resultId = rt.tree.appendMessage(result);
        await rt.persist(() => rt.emit({ type: "tool_end", toolCall: call, result, entryId: resultId }));
        toolResults.push(result);
      }
    }
    await rt.lifecycle({ type: "turn_end", turnIndex, message, toolResults });
    if (toolResults.length === 0 || signal.aborted) return last;
  }
}
