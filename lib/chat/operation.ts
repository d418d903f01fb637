import "server-only";
/**
 * One agent operation (turn, manual compaction, navigation) from HTTP request to UI stream.
 *
 * `startOperation` claims the session's run slot (lib/runs/running.ts; busy → 409), opens the agent
 * (runtime.ts; unknown session → 404, unavailable model → 400), then starts `work` DETACHED from
 * the response: the work runs to its end whether or not anyone reads the stream, writing its
 * events through the sink (ui-stream.ts), which drops chunks once the client is gone. When the
 * work ends — done, failed, or stopped through the run's signal — the agent is closed and the
 * slot released. A failure becomes a `data-error` part (`code: "conflict"` for the store's
 * ConflictError); it is never thrown into the stream.
 *
 * `onCancel` (optional) runs when the client cancels the response body: compaction and
 * navigation pass their abort there (cancelling writes nothing); a turn passes nothing and
 * survives the browser going away — only Stop (`abortRun`) ends it.
 */
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { isConflictError } from "@/lib/agent/ports";
import { NotFoundError, toDatabaseError } from "@/lib/db";
import { jsonError, sessionNotFound, withCancel } from "@/lib/http/route-helpers";
import { BusyError, claimRun, claimRunPreempting, type RunHandle, type RunKind } from "@/lib/runs";
import { ModelUnavailableError, type OpenedSession, openSessionAgent } from "./runtime";
import { type AgentStreamSink, createAgentStreamSink } from "./ui-stream";
import type { SessionUIMessage } from "@/lib/chat-protocol/ui-types";
import { errorText } from "@/lib/text/error-text";

export interface OperationInput {
  sessionId: string;
  kind: RunKind;
  /** Running operations of these kinds are stopped and awaited first (session-engine.md §13.4 step 1). */
  preempt?: readonly RunKind[];
  /** A model picked for this request. */
  chatModel?: string;
  /** A compaction model picked for this request. */
  compactionModel?: string;
  /** The client cancelled the response body. */
  onCancel?: () => void;
  /** Runs before the work starts, e.g. to persist the picked model; failures are logged only. */
  prepare?: (opened: OpenedSession) => Promise<void>;
  work: (ctx: { opened: OpenedSession; sink: AgentStreamSink; run: RunHandle }) => Promise<void>;
}

/** What the client and the log are told of a failure: errorText, or the error's class when its message is empty. */
export function failureText(err: unknown): string {
  return errorText(err) || (err instanceof Error ? err.name : "");
}

async function claim(input: OperationInput): Promise<RunHandle> {
  return input.preempt?.length
    ? claimRunPreempting(input.sessionId, input.kind, input.preempt)
    : claimRun(input.sessionId, input.kind);
}

export async function startOperation(input: OperationInput): Promise<Response> {
  let run: RunHandle;
  try {
    run = await claim(input);
  } catch (err) {
    if (err instanceof BusyError) return jsonError(409, err.message, "busy");
    throw err;
  }

  const sink = createAgentStreamSink();
  let opened: OpenedSession;
  try {
    opened = await openSessionAgent({
      sessionId: input.sessionId,
      emit: sink.emit,
      ...(input.chatModel ? { chatModel: input.chatModel } : {}),
      ...(input.compactionModel ? { compactionModel: input.compactionModel } : {}),
    });
  } catch (err) {
    run.finish();
    if (err instanceof NotFoundError) return sessionNotFound(input.sessionId);
    if (err instanceof ModelUnavailableError) return jsonError(400, err.message, "unavailable");
    throw err;
  }
  sink.setLeafSource(() => opened.agent.tree.getLeafId());
  sink.start(input.sessionId);

  const done = (async () => {
    try {
      if (input.prepare) {
        await input.prepare(opened).catch((err: unknown) => {
          console.warn(`arbor: session ${input.sessionId}: ${failureText(err)}`);
        });
      }
      await input.work({ opened, sink, run });
    } catch (err) {
      sink.error(failureText(toDatabaseError(err)), isConflictError(err) ? "conflict" : "failed");
    } finally {
      try {
        await opened.close();
      } catch (err) {
        console.warn(`arbor: closing session ${input.sessionId} failed: ${failureText(err)}`);
      } finally {
        run.finish();
      }
      sink.finish();
    }
  })();

  const stream = createUIMessageStream<SessionUIMessage>({
    execute: async ({ writer }) => {
      sink.attach(writer);
      await done;
    },
    onError: failureText,
  });
  return createUIMessageStreamResponse({
    stream: input.onCancel ? withCancel(stream, input.onCancel) : stream,
    headers: { "cache-control": "no-store" },
  });
}
