/**
 * Test helpers for lib/agent: a scripted AgentModel, a static ModelResolver, a recording sleep
 * and a `setup()` harness over the real MemoryAgentStore. Not used by production code.
 *
 * ScriptedModel is an honest stand-in for lib/llm's model at this unit level (the real model
 * path is integration-tested against the HTTP fake server): every reply is a spec-shaped
 * AssistantMessage (§1.5) with provider, model, usage, stopReason and timestamp; text streams
 * through `onDelta`; a `hang` reply streams its text and then waits for the abort signal,
 * returning the partial content with stopReason "aborted", as stream-assistant does.
 */
import type { AgentEvent } from "@/lib/agent/events";
import { MemoryAgentStore } from "@/lib/agent/memory-store";
import type {
  AgentModel,
  AgentModelInfo,
  AgentSummarizerOptions,
  ModelCallRecord,
  ModelResolver,
  ModelStreamRequest,
} from "@/lib/agent/ports";
import { SessionAgent, type SessionAgentOptions } from "@/lib/agent/session-agent";
import type { Summarize, SummarizeRequest, SummarizeResponse } from "@/lib/compaction/summarize-types";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import { HookRegistry } from "@/lib/hooks/registry";
import { BASE_TIME, header, sequentialIds } from "@/test/session-factories";
import { SessionTree } from "@/lib/session/tree/tree";
import type { AssistantMessage, LlmMessage, SessionEntry, StopReason, ToolCall, Usage } from "@/lib/session/types";
import { defaultSettings, type Settings } from "@/lib/settings/schema";

export interface ChatReply {
  text?: string;
  thinking?: string;
  toolCalls?: ToolCall[];
  usage?: Partial<Usage>;
  stopReason?: StopReason;
  errorMessage?: string;
  /** Stream `text`, then wait for the abort signal and return the partial message. */
  hang?: boolean;
}
export type ChatStep = ChatReply | ((req: ModelStreamRequest, callIndex: number) => ChatReply | Promise<ChatReply>);
export type SummaryStep = SummarizeResponse | ((req: SummarizeRequest, callIndex: number) => Promise<SummarizeResponse>);

export interface ScriptedModelOptions {
  provider?: string;
  id?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  hasApiKey?: boolean;
  chat?: ChatStep[];
  /** Summarization replies in call order; default: `{ stop, "<kind> summary N" }`. */
  summaries?: SummaryStep[];
  now?: () => number;
}

export class ScriptedModel implements AgentModel {
  readonly info: AgentModelInfo;
  readonly hasApiKey: boolean;
  /** Every chat request, with a snapshot of its messages. */
  readonly requests: (ModelStreamRequest & { messages: LlmMessage[] })[] = [];
  readonly summarizeRequests: SummarizeRequest[] = [];
  readonly summarizerOptions: AgentSummarizerOptions[] = [];
  private readonly chat: ChatStep[];
  private readonly summaries: SummaryStep[];
  private readonly now: () => number;

  constructor(opts: ScriptedModelOptions = {}) {
    const provider = opts.provider ?? "anthropic";
    const id = opts.id ?? "claude-sonnet-4-5";
    this.info = {
      provider,
      id,
      ref: `${provider}/${id}`,
      contextWindow: opts.contextWindow ?? 200_000,
      maxOutputTokens: opts.maxOutputTokens ?? 8192,
      reasoning: true,
    };
    this.hasApiKey = opts.hasApiKey ?? true;
    this.chat = [...(opts.chat ?? [])];
    this.summaries = [...(opts.summaries ?? [])];
    this.now = opts.now ?? Date.now;
  }

  /** Adds replies to the end of the chat script. */
  script(...steps: ChatStep[]): this {
    this.chat.push(...steps);
    return this;
  }

  async stream(req: ModelStreamRequest): Promise<AssistantMessage> {
    const index = this.requests.length;
    this.requests.push({ ...req, messages: structuredClone(req.messages) });
    const step = this.chat.shift();
    const reply: ChatReply = !step
      ? { stopReason: "error", errorMessage: `ScriptedModel: no reply scripted for call ${index + 1}` }
      : typeof step === "function"
        ? await step(req, index)
        : step;
    const message: AssistantMessage = {
      role: "assistant",
      content: [],
      api: "test-messages",
      provider: this.info.provider,
      model: this.info.id,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...reply.usage },
      stopReason: reply.stopReason ?? (reply.toolCalls?.length ? "toolUse" : "stop"),
      timestamp: this.now(),
    };
    if (reply.thinking) {
      req.onDelta?.({ type: "reasoning-delta", delta: reply.thinking, contentIndex: message.content.length });
      message.content.push({ type: "thinking", thinking: reply.thinking });
    }
    if (reply.text) {
      const contentIndex = message.content.length;
      for (const part of reply.text.split(/(?<= )/)) req.onDelta?.({ type: "text-delta", delta: part, contentIndex });
      message.content.push({ type: "text", text: reply.text });
    }
    if (reply.hang) {
      await new Promise<void>((resolve) => {
        if (req.signal?.aborted) resolve();
        else req.signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      message.stopReason = "aborted";
      return message;
    }
    for (const call of reply.toolCalls ?? []) {
      req.onDelta?.({ type: "tool-call", toolCall: call, contentIndex: message.content.length });
      message.content.push(call);
    }
    if (reply.errorMessage !== undefined) message.errorMessage = reply.errorMessage;
    req.onDelta?.({ type: "finish", message });
    return message;
  }

  summarizer(opts: AgentSummarizerOptions = {}): Summarize {
    this.summarizerOptions.push(opts);
    return async (req) => {
      const index = this.summarizeRequests.length;
      this.summarizeRequests.push(req);
      const step = this.summaries.shift();
      const res: SummarizeResponse = !step
        ? { stopReason: "stop", text: `${req.kind} summary ${index + 1}` }
        : typeof step === "function"
          ? await step(req, index)
          : step;
      if ("text" in res) opts.onText?.(req.kind, res.text);
      return res;
    };
  }
}

export class StaticResolver implements ModelResolver {
  constructor(readonly models: AgentModel[]) {}
  resolve(ref: string): AgentModel | undefined {
    return this.models.find((m) => m.info.ref === ref);
  }
  listAvailable(): AgentModel[] {
    return this.models;
  }
}

/** A Sleep that records each delay and resolves at once (rejects when aborted). */
export function recordingSleep(onSleep?: (ms: number) => void) {
  const delays: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    delays.push(ms);
    onSleep?.(ms);
    if (signal?.aborted) throw new Error("aborted");
  };
  return { sleep, delays };
}

export type SettingsPatch = { [K in keyof Settings]?: Partial<Settings[K]> };

export function testSettings(patch: SettingsPatch = {}): Settings {
  const s = defaultSettings();
  return {
    compaction: { ...s.compaction, ...patch.compaction },
    branchSummary: { ...s.branchSummary, ...patch.branchSummary },
    retry: { ...s.retry, ...patch.retry },
    modelRoles: { ...s.modelRoles, ...patch.modelRoles },
  };
}

export interface SetupOptions extends Partial<Omit<SessionAgentOptions, "tree" | "store" | "settings" | "model">> {
  entries?: SessionEntry[];
  settings?: SettingsPatch;
  model?: ScriptedModel | null;
  /** Options of the default ScriptedModel (which shares the harness clock). */
  modelOptions?: Omit<ScriptedModelOptions, "now">;
  /** Extra models for the resolver (the current model is always included). */
  otherModels?: AgentModel[];
  onSleep?: (ms: number) => void;
}

/** A clock shared by the tree, the agent and the model: BASE_TIME + 1 s per call. */
export function testClock(startSeconds = 1000): () => number {
  let t = BASE_TIME + startSeconds * 1000;
  return () => {
    t += 1000;
    return t;
  };
}

export function setup(opts: SetupOptions = {}) {
  const now = opts.now ?? testClock();
  const tree = new SessionTree(header(), opts.entries ?? [], { now: () => new Date(now()), newId: sequentialIds("n") });
  const store = MemoryAgentStore.fromTree(tree);
  const model = opts.model === null ? undefined : (opts.model ?? new ScriptedModel({ now, ...opts.modelOptions }));
  const events: AgentEvent[] = [];
  const { sleep, delays } = recordingSleep(opts.onSleep);
  const records: ModelCallRecord[] = [];
  const hooks = opts.hooks ?? new HookRegistry();
  const warnings: string[] = [];
  const agent = new SessionAgent({
    tree,
    store,
    ...(model ? { model } : {}),
    models: opts.models ?? new StaticResolver([...(model ? [model] : []), ...(opts.otherModels ?? [])]),
    settings: testSettings(opts.settings),
    hooks,
    prompts: opts.prompts ?? TEST_PROMPTS,
    ...(opts.tools ? { tools: opts.tools } : {}),
    ...(opts.systemPrompt !== undefined ? { systemPrompt: opts.systemPrompt } : {}),
    emit: (e) => events.push(e),
    recorder: opts.recorder ?? { record: (r) => void records.push(r) },
    sleep: opts.sleep ?? sleep,
    now,
    log: { warn: (m) => void warnings.push(m) },
    ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}),
  });
  const ofType = <T extends AgentEvent["type"]>(type: T) =>
    events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
  return { agent, tree, store, model, events, ofType, delays, records, hooks, warnings, now };
}

/** Roles of the messages of a model request. */
export function roles(req: { messages: LlmMessage[] }): string[] {
  return req.messages.map((m) => m.role);
}
