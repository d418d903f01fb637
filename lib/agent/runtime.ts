/**
 * AgentRuntime: the state and injected dependencies one SessionAgent shares with its step
 * modules (turn-runner, compaction-check, auto-compaction, turn-retry, manual-compaction).
 * Internal to lib/agent; callers use SessionAgent.
 *
 * Contract:
 * - `emit` forwards to the caller's listener and swallows listener errors (an observer must not
 *   break a turn).
 * - `lifecycle` sends a session-engine.md §12 lifecycle event to the listener AND to the hook registry, and
 *   waits for the hooks.
 * - `persist` commits everything pending in the tree (one store commit), then announces each
 *   committed entry with `message_saved` and the new `context_usage`. A failed commit (e.g.
 *   ConflictError) propagates: the caller surfaces it.
 */
import { errorText } from "@/lib/text/error-text";
import type { AgentEvent } from "@/lib/agent/events";
import type {
  AgentLogger,
  AgentModel,
  AgentStore,
  AgentTools,
  ModelCallRecorder,
  ModelResolver,
  Sleep,
  SummaryTextListener,
} from "@/lib/agent/ports";
import { recordingSummarizer } from "@/lib/agent/recording";
import type { TreeCommitter } from "@/lib/agent/tree-committer";
import type { WorkingContext } from "@/lib/agent/working-context";
import type { Summarize } from "@/lib/compaction/summarize-types";
import { type ContextUsage, getContextUsage } from "@/lib/compaction/tokens";
import type { HookRegistry } from "@/lib/hooks/registry";
import type { HookContext, HookEvent } from "@/lib/hooks/types";
import type { SessionTree } from "@/lib/session/tree/tree";
import type { CustomMessageEntry, PromptSet, SessionEntry, UserMessage } from "@/lib/session/types";
import type { Settings } from "@/lib/settings/schema";

/** What the run loop does after a run: nothing, a new user prompt, a plain continue, or the queue. */
export type NextAction =
  | { kind: "prompt"; content: UserMessage["content"]; synthetic: boolean }
  | { kind: "continue" }
  | { kind: "queued" };

/** A message waiting for the current run to end (`SessionAgent.queueMessage`). */
export type QueuedMessage =
  | { role: "user"; content: UserMessage["content"]; synthetic?: boolean }
  | ({ role: "custom" } & Pick<CustomMessageEntry, "customType" | "content" | "display" | "details">);

export interface AgentState {
  /** Set by overflow recovery; cleared when a user message starts (session-engine.md §13.2). */
  overflowRecoveryAttempted: boolean;
  /** Turn-retry attempt counter (session-engine.md §13.5); 0 when no retry sequence is running. */
  retryAttempt: number;
  /** The running auto-compaction, aborted when a new one starts (session-engine.md §13.3 step 1). */
  autoCompaction?: AbortController;
  queue: QueuedMessage[];
  /** Model calls of the current run (for turn indices). */
  turnIndex: number;
}

type LifecycleType = "auto_compaction_start" | "auto_compaction_end" | "auto_retry_start" | "auto_retry_end" | "turn_start" | "turn_end";

export interface RuntimeInit {
  tree: SessionTree;
  store: AgentStore;
  committer: TreeCommitter;
  working: WorkingContext;
  model: AgentModel | undefined;
  models: ModelResolver;
  settings: Settings;
  hooks: HookRegistry;
  hookContext: HookContext;
  prompts: PromptSet;
  tools?: AgentTools;
  systemPrompt?: string;
  maxOutputTokens?: number;
  maxSteps: number;
  recorder?: ModelCallRecorder;
  sleep: Sleep;
  now: () => number;
  log: AgentLogger;
  listener: (event: AgentEvent) => void;
}

export class AgentRuntime {
  readonly tree: SessionTree;
  readonly store: AgentStore;
  readonly committer: TreeCommitter;
  readonly working: WorkingContext;
  readonly models: ModelResolver;
  readonly settings: Settings;
  readonly hooks: HookRegistry;
  readonly hookContext: HookContext;
  readonly prompts: PromptSet;
  readonly tools?: AgentTools;
  readonly systemPrompt?: string;
  readonly maxOutputTokens?: number;
  readonly maxSteps: number;
  readonly recorder?: ModelCallRecorder;
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly log: AgentLogger;
  model: AgentModel | undefined;
  readonly state: AgentState = { overflowRecoveryAttempted: false, retryAttempt: 0, queue: [], turnIndex: 0 };
  private readonly listener: (event: AgentEvent) => void;

  constructor(init: RuntimeInit) {
    this.tree = init.tree;
    this.store = init.store;
    this.committer = init.committer;
    this.working = init.working;
    this.model = init.model;
    this.models = init.models;
    this.settings = init.settings;
    this.hooks = init.hooks;
    this.hookContext = init.hookContext;
    this.prompts = init.prompts;
    this.tools = init.tools;
    this.systemPrompt = init.systemPrompt;
    this.maxOutputTokens = init.maxOutputTokens;
    this.maxSteps = init.maxSteps;
    this.recorder = init.recorder;
    this.sleep = init.sleep;
    this.now = init.now;
    this.log = init.log;
    this.listener = init.listener;
  }

  emit(event: AgentEvent): void {
    try {
      this.listener(event);
    } catch (err) {
      this.log.warn("Agent event listener failed", { event: event.type, error: errorText(err) });
    }
  }

  async lifecycle<K extends LifecycleType>(event: HookEvent<K>): Promise<void> {
    this.emit(event as AgentEvent);
    await this.hooks.emit(event, this.hookContext);
  }

  contextUsage(): ContextUsage | undefined {
    return getContextUsage(this.working.messages(), this.model?.info.contextWindow);
  }

  emitContextUsage(): void {
    const usage = this.contextUsage();
    if (usage) this.emit({ type: "context_usage", usage });
  }

  /** `beforeSaved` runs after the commit succeeded and before the message_saved events. */
  async persist(beforeSaved?: () => void): Promise<SessionEntry[]> {
    const entries = await this.committer.commit();
    beforeSaved?.();
    for (const entry of entries) this.emit({ type: "message_saved", entryId: entry.id, entry });
    if (entries.length > 0) this.emitContextUsage();
    return entries;
  }

  /** The summarizer of `model`, recorded, streaming its text to `onText`. */
  summarizer(model: AgentModel, onText?: SummaryTextListener): Summarize {
    return recordingSummarizer(model, {
      ...(this.recorder ? { recorder: this.recorder } : {}),
      log: this.log,
      now: this.now,
      ...(onText ? { onText } : {}),
      ...(this.settings.compaction.remoteEndpoint ? { remoteEndpoint: this.settings.compaction.remoteEndpoint } : {}),
      ...(this.settings.secrets?.sendToSummaries ? { sendSecrets: true } : {}),
    });
  }
}
