/**
 * SessionAgent: turns, tool calls, auto-compaction, overflow recovery, retries, manual
 * compaction and tree navigation over one session (session-engine.md §11.4, §12, §13).
 *
 * The caller loads the session into a SessionTree and passes it with an AgentStore; the agent
 * appends to the tree and commits every step through the store (tree-committer.ts), with the
 * previous leaf as `expectedLeafId`. The model, the provider registry, tools, hooks and a
 * model-call recorder are injected (ports.ts); lib/agent never imports lib/db, next or the
 * AI SDK (conventions rule 1).
 *
 * The run loop of `prompt()` is in run-loop.ts; navigation in agent-navigation.ts.
 * `prompt()` resolves when the whole chain is done, with the last assistant message. It rejects
 * (after an `error` event) only for programming or persistence failures: no model, a busy
 * agent, a store conflict. Model failures are assistant messages with stopReason "error".
 *
 * One operation at a time: prompt, compact and navigate refuse to overlap (`Agent is busy`),
 * except that compact() first aborts the running turn and waits for it (§13.4 step 1).
 */
import { abortableSleep, linkedController } from "@/lib/agent/abort";
import { errorText } from "@/lib/text/error-text";
import { type NavigateOptions, navigateAndCommit } from "@/lib/agent/agent-navigation";
import type { AgentEmit } from "@/lib/agent/events";
import { type CompactionPreview, compactManually, previewCompaction } from "@/lib/agent/manual-compaction";
import type { NavigateTreeResult } from "@/lib/agent/navigate-tree";
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
import { isConflictError } from "@/lib/agent/ports";
import { type RunLoopOptions, runPromptLoop } from "@/lib/agent/run-loop";
import { AgentRuntime, type QueuedMessage } from "@/lib/agent/runtime";
import { createTreeCommitter } from "@/lib/agent/tree-committer";
import { WorkingContext } from "@/lib/agent/working-context";
import type { CompactionResult } from "@/lib/compaction/summarize-types";
import type { ContextUsage } from "@/lib/compaction/tokens";
import { createHookContext } from "@/lib/hooks/context";
import { HookRegistry } from "@/lib/hooks/registry";
import type { SessionTree } from "@/lib/session/tree/tree";
import type { AgentMessage, AssistantMessage, PromptSet, UserMessage } from "@/lib/session/types";
import type { Settings } from "@/lib/settings/schema";

export type { NavigateOptions } from "@/lib/agent/agent-navigation";
export type { CompactionPreview } from "@/lib/agent/manual-compaction";
export type { NavigateTreeResult } from "@/lib/agent/navigate-tree";
export { MAX_RUNS_PER_PROMPT } from "@/lib/agent/run-loop";
export type { QueuedMessage } from "@/lib/agent/runtime";

/** Model calls allowed in one run before the agent stops the tool loop. */
export const DEFAULT_MAX_STEPS = 25;

export interface SessionAgentOptions {
  tree: SessionTree;
  store: AgentStore;
  /** The current model; without one, prompt/compact throw `No model selected`. */
  model?: AgentModel;
  models: ModelResolver;
  settings: Settings;
  hooks?: HookRegistry;
  prompts: PromptSet;
  tools?: AgentTools;
  systemPrompt?: string;
  maxOutputTokens?: number;
  emit?: AgentEmit;
  recorder?: ModelCallRecorder;
  /** Injectable for tests; default: a real abortable timer. */
  sleep?: Sleep;
  /** Clock for message timestamps and recordings (epoch ms). */
  now?: () => number;
  log?: AgentLogger;
  /** Default DEFAULT_MAX_STEPS. */
  maxSteps?: number;
}

export interface PromptOptions extends RunLoopOptions {
  signal?: AbortSignal;
}

export interface CompactOptions {
  signal?: AbortSignal;
  onSummaryText?: SummaryTextListener;
  /** Arbor ("Compact again with…"): replaces the summary prompt and is recorded in details. */
  promptOverride?: string;
  /** Arbor: fields merged into the stored compaction's `details` (arborFocus, arborModel, …). */
  details?: Record<string, unknown>;
}

const noop = () => {};

export class SessionAgent {
  readonly tree: SessionTree;
  private readonly rt: AgentRuntime;
  private active: Promise<void> | undefined;
  private runController: AbortController | undefined;
  private compactionController: AbortController | undefined;
  private branchSummaryController: AbortController | undefined;

  constructor(opts: SessionAgentOptions) {
    this.tree = opts.tree;
    const emit = opts.emit ?? noop;
    this.rt = new AgentRuntime({
      tree: opts.tree,
      store: opts.store,
      committer: createTreeCommitter(opts.tree, opts.store),
      working: new WorkingContext(opts.tree),
      model: opts.model,
      models: opts.models,
      settings: opts.settings,
      hooks: opts.hooks ?? new HookRegistry(),
      hookContext: createHookContext(opts.tree),
      prompts: opts.prompts,
      ...(opts.tools ? { tools: opts.tools } : {}),
      ...(opts.systemPrompt !== undefined ? { systemPrompt: opts.systemPrompt } : {}),
      ...(opts.maxOutputTokens !== undefined ? { maxOutputTokens: opts.maxOutputTokens } : {}),
      maxSteps: opts.maxSteps ?? DEFAULT_MAX_STEPS,
      ...(opts.recorder ? { recorder: opts.recorder } : {}),
      sleep: opts.sleep ?? abortableSleep,
      now: opts.now ?? Date.now,
      log: opts.log ?? { warn: (message, data) => console.warn(message, data ?? "") },
      listener: emit,
    });
  }

  // ── State ────────────────────────────────────────────────────────────────

  get isBusy(): boolean {
    return this.active !== undefined;
  }

  getModel(): AgentModel | undefined {
    return this.rt.model;
  }

  setModel(model: AgentModel | undefined): void {
    this.rt.model = model;
  }

  /** The messages the next model call receives (session-engine.md §13 "Working context"). */
  getWorkingMessages(): AgentMessage[] {
    return this.rt.working.messages();
  }

  /** Context usage of the working context (session-engine.md §4); undefined without a model window. */
  getContextUsage(): ContextUsage | undefined {
    return this.rt.contextUsage();
  }

  /** Entry ids kept in the store but left out of the working context. */
  getExcludedEntryIds(): ReadonlySet<string> {
    return this.rt.working.excludedIds();
  }

  /** Sent after the current (or next) run ends; see session-engine.md §13.3 step 9 for compactions. */
  queueMessage(message: QueuedMessage): void {
    this.rt.state.queue.push(message);
  }

  getQueuedMessages(): readonly QueuedMessage[] {
    return this.rt.state.queue;
  }

  /** Aborts the running turn (and its retry wait or auto-compaction). */
  abort(): void {
    this.runController?.abort();
    this.rt.state.autoCompaction?.abort();
  }

  abortCompaction(): void {
    this.compactionController?.abort();
  }

  abortBranchSummary(): void {
    this.branchSummaryController?.abort();
  }

  async waitForIdle(): Promise<void> {
    while (this.active) await this.active;
  }

  /** Stops tracking tree appends; the agent must not be used afterwards. */
  dispose(): void {
    this.abort();
    this.rt.committer.dispose();
  }

  // ── Operations ───────────────────────────────────────────────────────────

  async prompt(content: UserMessage["content"], opts: PromptOptions = {}): Promise<AssistantMessage | undefined> {
    if (this.active) throw new Error("Agent is busy");
    if (!this.rt.model) throw new Error("No model selected");
    const { controller, unlink } = linkedController(opts.signal);
    this.runController = controller;
    return this.exclusive(
      () => runPromptLoop(this.rt, content, opts, controller.signal),
      () => {
        unlink();
        this.runController = undefined;
      },
    );
  }

  /** Manual compaction (session-engine.md §13.4). Throws the §13.4 messages; never emits auto_compaction_*. */
  async compact(customInstructions?: string, opts: CompactOptions = {}): Promise<CompactionResult> {
    if (this.active) {
      this.abort();
      await this.waitForIdle();
    }
    if (this.active) throw new Error("Agent is busy");
    const { controller, unlink } = linkedController(opts.signal);
    this.compactionController = controller;
    return this.exclusive(
      () => compactManually(this.rt, customInstructions, controller.signal, opts.onSummaryText, {
          ...(opts.promptOverride ? { promptOverride: opts.promptOverride } : {}),
          ...(opts.details ? { details: opts.details } : {}),
        }),
      () => {
        unlink();
        this.compactionController = undefined;
      },
      false,
    );
  }

  /** What a manual compaction would do now, without calling a model. */
  previewCompaction(customInstructions?: string): CompactionPreview {
    return previewCompaction(this.rt, customInstructions);
  }

  /** navigateTree (session-engine.md §11.4) plus one store commit of what changed (agent-navigation.ts). */
  async navigate(targetId: string, opts: NavigateOptions = {}): Promise<NavigateTreeResult> {
    if (this.active) throw new Error("Agent is busy");
    const { controller, unlink } = linkedController(opts.signal);
    this.branchSummaryController = controller;
    return this.exclusive(
      () => navigateAndCommit(this.rt, targetId, opts, controller.signal),
      () => {
        unlink();
        this.branchSummaryController = undefined;
      },
      false,
    );
  }

  // ── Internals ────────────────────────────────────────────────────────────

  /** Runs `work` as the one active operation; reports its failure as an `error` event if asked. */
  private async exclusive<T>(work: () => Promise<T>, cleanup: () => void, reportErrors = true): Promise<T> {
    // Marked active before `work` starts, so nothing can slip in during its synchronous part.
    let release = noop;
    this.active = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      return await work();
    } catch (err) {
      if (reportErrors) this.rt.emit({ type: "error", message: errorText(err), ...(isConflictError(err) ? { conflict: true } : {}) });
      throw err;
    } finally {
      cleanup();
      this.active = undefined;
      release();
    }
  }
}
