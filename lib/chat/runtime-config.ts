import "server-only";
/**
 * Process-wide configuration of the chat runtime: which provider registry it resolves models
 * in and where session workspaces live.
 *
 * By default the registry is built from the environment (lib/llm/providers.ts: `ARBOR_OPENAI_BASE_URL`
 * and friends, else the offline model) plus the providers set in the Settings page
 * (lib/chat/provider-settings.ts, rebuilt when they change) and workspaces follow lib/tools/workspace.ts. Tests
 * point the runtime at the fake model server with `configureChatRuntime({ registry })` (a
 * `createProviderRegistry(config)`), so the real provider code runs; `resetChatRuntime()`
 * restores the defaults. Kept on globalThis so every route bundle of the process agrees.
 */
import { env } from "@/lib/env";
import type { ProviderRegistry } from "@/lib/llm/providers";
import { DEFAULT_IDLE_TIMEOUT_MS } from "@/lib/llm/stream-assistant";
import { defaultAllowedRoots, resolveWorkspace } from "@/lib/tools/workspace";
import { settingsRegistry } from "./provider-settings";

export interface ChatRuntimeConfig {
  registry?: ProviderRegistry;
  /** Folder of per-session workspaces (default: lib/tools' ARBOR_WORKSPACES / data dir). */
  workspacesDir?: string;
  /** Roots a session's project folder must lie in (default: ARBOR_ALLOWED_ROOTS). */
  allowedRoots?: string[];
  /**
   * How long a model call may go without data before the turn (or summary) ends with "The model
   * stopped responding" (default: ARBOR_MODEL_IDLE_TIMEOUT_MS, else 120 s; 0 = never).
   */
  modelIdleTimeoutMs?: number;
}

const KEY = Symbol.for("arbor.chat.runtime-config");
type Global = typeof globalThis & { [KEY]?: ChatRuntimeConfig };

function current(): ChatRuntimeConfig {
  const g = globalThis as Global;
  g[KEY] ??= {};
  return g[KEY];
}

/** Overrides parts of the configuration (fields left out keep their value). */
export function configureChatRuntime(config: ChatRuntimeConfig): void {
  Object.assign(current(), config);
}

export function resetChatRuntime(): void {
  (globalThis as Global)[KEY] = {};
}

/** Shorthand used by tests: `setProviderRegistryForTests(createProviderRegistry({ compatible }))`. */
export function setProviderRegistryForTests(registry: ProviderRegistry | undefined): void {
  current().registry = registry;
}

export function chatRegistry(): ProviderRegistry {
  return current().registry ?? settingsRegistry();
}

/**
 * The folder a session's tools and Files panel work in: its own workspace, or its project folder
 * (`agent.projectDir`) when that lies inside an allowed root (lib/tools/workspace.ts). One place,
 * so the agent, the Files routes and the settings check always agree.
 */
export function resolveSessionRoot(sessionId: string, projectDir?: string): Promise<string> {
  const { workspacesDir, allowedRoots } = current();
  return resolveWorkspace(
    { sessionId, ...(projectDir ? { projectDir } : {}) },
    { ...(workspacesDir ? { workspacesDir } : {}), ...(allowedRoots ? { allowedRoots } : {}) },
  );
}

/** The roots a project folder (and a synced folder, lib/sync/allowed.ts) must lie in. */
export function allowedRootsSetting(): string[] {
  return current().allowedRoots ?? defaultAllowedRoots();
}

export function modelIdleTimeoutMs(): number {
  return current().modelIdleTimeoutMs ?? env.ARBOR_MODEL_IDLE_TIMEOUT_MS ?? DEFAULT_IDLE_TIMEOUT_MS;
}
