import "server-only";
/**
 * AgentEvents → UI message stream chunks, following the protocol in lib/chat-protocol/ui-types.ts.
 *
 * - `start` (metadata `{ sessionId }`) opens the response message; `finish` closes it.
 * - Each model call is a step: message_start → `start-step`; text / reasoning deltas →
 *   `text-start`/`text-delta` and `reasoning-start`/`reasoning-delta` (one part per content
 *   block, id `text-<step>-<contentIndex>`); message_end → the matching `*-end` parts and
 *   `finish-step`. Tool calls travel in the saved assistant entry, not as tool parts.
 * - Transient data parts: message_saved → `data-entry { entry, leafId }` (the leaf after the
 *   commit); compaction_* → `data-compaction` start / delta / end (for automatic compactions
 *   the end waits for auto_compaction_end, so it carries `willRetry`); auto_retry_* →
 *   `data-retry`; prune → `data-prune`; context_usage → `data-usage`; error → `data-error`
 *   (`code: "conflict"` for the store's conflict). A failed overflow recovery (session-engine.md §13.2
 *   step 7.1, §13.3 step 10) is also a `data-error`: the turn cannot go on.
 * - Writing never throws and a disconnected client is ignored: the UI stream's writer drops
 *   chunks once the response is cancelled, and chunks written before `attach` are buffered.
 */
import type { UIMessageStreamWriter } from "ai";
import type { AgentEvent } from "@/lib/agent/ports";
import type { ArborDataParts, CompactionReason, SessionUIMessage } from "@/lib/chat-protocol/ui-types";

type Writer = UIMessageStreamWriter<SessionUIMessage>;
type Chunk = Parameters<Writer["write"]>[0];
/** ArborDataParts without its index signature: the part names the protocol defines. */
type KnownData = { [K in keyof ArborDataParts as string extends K ? never : K]: ArborDataParts[K] };
type CompactionEnd = Extract<ArborDataParts["compaction"], { phase: "end" }>;

export type ErrorCode = NonNullable<ArborDataParts["error"]["code"]>;

export interface AgentStreamSink {
  /** The listener to hand to the SessionAgent. */
  emit(event: AgentEvent): void;
  attach(writer: Writer): void;
  /** Where `data-entry` reads the session's leaf from (the agent's tree). */
  setLeafSource(leaf: () => string | null): void;
  data<K extends keyof KnownData & string>(name: K, data: ArborDataParts[K]): void;
  /** A `data-error`; the same message is written once. */
  error(message: string, code?: ErrorCode): void;
  /** True once any `data-error` was written. */
  hasError(): boolean;
  start(sessionId: string): void;
  finish(): void;
}

export function createAgentStreamSink(): AgentStreamSink {
  let writer: Writer | undefined;
  const buffer: Chunk[] = [];
  let leaf: () => string | null = () => null;
  let step = 0;
  let inStep = false;
  const open = new Map<string, "text" | "reasoning">();
  let compactionReason: CompactionReason = "manual";
  let pendingEnd: CompactionEnd | undefined;
  const errors = new Set<string>();

  const write = (chunk: Chunk) => {
    if (!writer) {
      buffer.push(chunk);
      return;
    }
    try {
      writer.write(chunk);
    } catch {
      // The client went away; the work goes on.
    }
  };
  const data = <K extends keyof KnownData & string>(name: K, value: ArborDataParts[K]) =>
    write({ type: `data-${name}`, data: value, transient: true } as Chunk);

  const closeStep = () => {
    for (const [id, kind] of open) write({ type: kind === "text" ? "text-end" : "reasoning-end", id });
    open.clear();
    if (inStep) write({ type: "finish-step" });
    inStep = false;
  };

  const error = (message: string, code?: ErrorCode) => {
    if (errors.has(message)) return;
    errors.add(message);
    data("error", code ? { message, code } : { message });
  };

  const delta = (kind: "text" | "reasoning", contentIndex: number, text: string) => {
    const id = `${kind}-${step}-${contentIndex}`;
    if (!open.has(id)) {
      open.set(id, kind);
      write({ type: kind === "text" ? "text-start" : "reasoning-start", id });
    }
    write({ type: kind === "text" ? "text-delta" : "reasoning-delta", id, delta: text });
  };

  const emit = (event: AgentEvent) => {
    switch (event.type) {
      case "message_start":
        closeStep();
        step++;
        inStep = true;
        write({ type: "start-step" });
        break;
      case "message_delta":
        if (event.delta.type === "text-delta") delta("text", event.delta.contentIndex, event.delta.delta);
        else if (event.delta.type === "reasoning-delta") delta("reasoning", event.delta.contentIndex, event.delta.delta);
        break;
      case "message_end":
        closeStep();
        break;
      case "message_saved":
        data("entry", { entry: event.entry, leafId: leaf() });
        break;
      case "compaction_start":
        compactionReason = event.reason;
        pendingEnd = undefined;
        data("compaction", { phase: "start", reason: event.reason });
        break;
      case "compaction_summary_delta":
        data("compaction", { phase: "delta", reason: compactionReason, kind: event.kind, delta: event.delta });
        break;
      case "compaction_end": {
        const end: CompactionEnd = { phase: "end", reason: event.reason };
        if (event.entryId) end.entryId = event.entryId;
        if (event.aborted) end.aborted = true;
        if (event.errorMessage) end.errorMessage = event.errorMessage;
        if (event.reason === "manual") data("compaction", end);
        else pendingEnd = end;
        break;
      }
      case "auto_compaction_end": {
        const end = pendingEnd;
        pendingEnd = undefined;
        if (end) {
          data("compaction", { ...end, willRetry: event.willRetry });
          if (end.reason === "overflow" && event.errorMessage) error(event.errorMessage, "failed");
        } else if (event.errorMessage) {
          error(event.errorMessage, "failed");
        }
        break;
      }
      case "auto_retry_start":
        data("retry", {
          phase: "start",
          attempt: event.attempt,
          maxAttempts: event.maxAttempts,
          delayMs: event.delayMs,
          errorMessage: event.errorMessage,
        });
        break;
      case "auto_retry_end":
        data("retry", {
          phase: "end",
          success: event.success,
          attempt: event.attempt,
          ...(event.finalError !== undefined ? { finalError: event.finalError } : {}),
        });
        break;
      case "prune":
        data("prune", { prunedCount: event.prunedCount, tokensSaved: event.tokensSaved });
        break;
      case "context_usage":
        data("usage", event.usage);
        break;
      case "error":
        error(event.message, event.conflict ? "conflict" : "failed");
        break;
      default:
        break;
    }
  };

  return {
    emit,
    attach(w) {
      writer = w;
      for (const chunk of buffer.splice(0)) write(chunk);
    },
    setLeafSource(source) {
      leaf = source;
    },
    data,
    error,
    hasError: () => errors.size > 0,
    start(sessionId) {
      write({ type: "start", messageMetadata: { sessionId } });
    },
    finish() {
      closeStep();
      write({ type: "finish" });
    },
  };
}
