import "server-only";
/**
 * `openSessionAgent`: everything a request needs to run the agent on a stored session.
 *
 * It reads the session from the read model (lib/db/read-model: fresh meta, cached committed
 * entries) and gives the agent its OWN tree (a fork of the cached one: own index, shared entry
 * objects that nothing mutates; the agent's appends and prunes never reach the cache, which
 * only learns what the store committed),
 * reads the session's settings column (session-config.ts: defaults + the override via
 * mergeSettings, plus the `agent` options), picks the chat and compaction models
 * (model-selection.ts) from the runtime's provider registry (runtime-config.ts), and builds a
 * SessionAgent with: the DB store (lib/db/store/agent-store.ts), the registry as ModelResolver, the
 * project hooks (hooks-loader.ts), the prompt templates, the session's workspace tools (as
 * switched on in `agent.tools.enabled`; all by default), the DB model-call recorder and the
 * chat system prompt.
 *
 * The agent has one current model: when the compaction model differs, it gets
 * `withCompactionModel(chat, compaction)` (lib/llm/agent-adapter.ts), which chats with the
 * chat model and summarizes with the compaction model.
 *
 * Throws NotFoundError (lib/db) for an unknown or deleted session and ModelUnavailableError
 * for a requested model whose provider is not configured. `close()` disposes the agent and
 * waits for the recorder's pending writes. Callers hold the session's run slot (lib/runs/running.ts).
 */
import type { AgentEmit, AgentModel } from "@/lib/agent/ports";
import { SessionAgent } from "@/lib/agent/session-agent";
import { chargePromptMemory, createAgentStore, createDbRecorder, NotFoundError, readLiveSession, type SessionMeta } from "@/lib/db";
import { createAgentModel, createModelResolver, withCompactionModel } from "@/lib/llm/agent-adapter";
import { loadPrompts } from "@/lib/llm/prompts";
import { createWorkspaceTools, TOOL_NAMES, type WorkspaceTools } from "@/lib/tools/registry";
import { createHookRegistry } from "./hooks-loader";
import { selectModels, sessionModelRef } from "./model-selection";
import { chatRegistry, modelIdleTimeoutMs, resolveSessionRoot } from "./runtime-config";
import { readSessionConfig, type SessionConfig } from "@/lib/chat-protocol/session-config";
import { buildSystemPrompt } from "./system-prompt";
import { errorText } from "@/lib/text/error-text";

export { ModelUnavailableError } from "./model-selection";

export interface OpenSessionAgentInput {
  sessionId: string;
  emit?: AgentEmit;
  /** Checked after loading: an aborted request opens nothing. */
  signal?: AbortSignal;
  /** A model picked for this request ("provider/modelId"); it must be available. */
  chatModel?: string;
  /** A compaction model picked for this request ("provider/modelId"), e.g. by "Compact again with…". */
  compactionModel?: string;
}

export interface OpenedSession {
  agent: SessionAgent;
  meta: SessionMeta;
  config: SessionConfig;
  /** The chat model (what the agent streams with). */
  chatModel: AgentModel;
  /** The model compaction and branch summaries use (the chat model unless the session set one). */
  compactionModel: AgentModel;
  tools?: WorkspaceTools;
  close(): Promise<void>;
}

async function workspaceTools(sessionId: string, config: SessionConfig): Promise<WorkspaceTools | undefined> {
  const enabled = config.agent.tools?.enabled ?? TOOL_NAMES;
  if (enabled.length === 0) return undefined;
  try {
    const root = await resolveSessionRoot(sessionId, config.agent.projectDir);
    return createWorkspaceTools({ root, enabled });
  } catch (err) {
    console.warn(`arbor: session ${sessionId} runs without tools: ${errorText(err)}`);
    return undefined;
  }
}

export async function openSessionAgent(input: OpenSessionAgentInput): Promise<OpenedSession> {
  const { sessionId } = input;
  const view = await readLiveSession({ sessionId });
  if (!view) throw new NotFoundError({ sessionId });
  const { meta } = view;
  input.signal?.throwIfAborted();

  const config = readSessionConfig(meta.settings);
  for (const warning of config.warnings) console.warn(`arbor: session ${sessionId}: ${warning}`);

  const registry = chatRegistry();
  await registry.ensureModels();
  const selected = selectModels(registry, {
    ...(input.chatModel ? { requested: input.chatModel } : {}),
    ...(input.compactionModel ? { compactionRequested: input.compactionModel } : {}),
    agent: config.agent,
    settings: config.settings,
    recorded: sessionModelRef(view.tree.getBranch()),
  });
  // The shared tree remembers the context at its leaf (branch-memo.ts) and extends it by what
  // the next commits append; the agent's fork starts from that memory instead of walking the
  // whole branch again each turn.
  view.tree.buildContext();
  const idleTimeoutMs = modelIdleTimeoutMs();
  // The request texts a chat call keeps with the session's messages count against its cache budget.
  const onPromptMemory = (bytes: number) => chargePromptMemory(sessionId, bytes);
  const chatModel = createAgentModel(selected.chat, { idleTimeoutMs, onPromptMemory });
  const compactionModel = selected.compaction === selected.chat ? chatModel : createAgentModel(selected.compaction, { idleTimeoutMs });

  const [hooks, tools] = await Promise.all([createHookRegistry(), workspaceTools(sessionId, config)]);
  const recorder = createDbRecorder({ sessionId });
  const agent = new SessionAgent({
    tree: view.tree.fork(),
    store: createAgentStore({ sessionId }),
    model: withCompactionModel(chatModel, compactionModel),
    models: createModelResolver({ registry, idleTimeoutMs, onPromptMemory }),
    settings: config.settings,
    hooks,
    prompts: loadPrompts(),
    ...(tools ? { tools } : {}),
    systemPrompt: buildSystemPrompt({ tools: tools?.enabled ?? [] }),
    recorder,
    ...(input.emit ? { emit: input.emit } : {}),
  });

  return {
    agent,
    meta,
    config,
    chatModel,
    compactionModel,
    ...(tools ? { tools } : {}),
    async close() {
      agent.dispose();
      await recorder.flush();
    },
  };
}
