import "server-only";
/**
 * The providers set in the Settings page, kept in `<data dir>/providers.json` (mode 0600: the file
 * holds API keys), and the provider registry built from the environment plus that file.
 *
 * Contract:
 * - Keys are written to the file only. `providerStatus()` — all the page and any response ever
 *   get — says whether a key is set and where from ("page" / "environment"), never the key.
 *   Nothing here logs a key; a warning names the part of the file that was ignored, not its value.
 * - `settingsRegistry()` rebuilds the registry when the file changes (its mtime and size, checked
 *   on each call: a stat), so a key saved in the page reaches the provider with the next request,
 *   in this process and in any other on the same data folder, without a restart.
 * - Writes replace the file atomically (a 0600 temp file renamed over it).
 * - Its paths are run-time data (`turbopackIgnore`): a route's build trace must not take in the
 *   project (e2e/build-trace.spec.ts).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/data-dir";
import { env } from "@/lib/env";
import { mergeRegistryConfig, type PageProvider, parseProviderSettings, type ProviderSettings } from "@/lib/llm/provider-config";
import { createProviderRegistry, type ProviderRegistry, registryConfigFromEnv } from "@/lib/llm/providers";

export const PROVIDERS_FILE = "providers.json";

export function providersFilePath(dir = dataDir()): string {
  return path.join(/*turbopackIgnore: true*/ dir, PROVIDERS_FILE);
}

function version(file: string): string {
  try {
    const s = statSync(/*turbopackIgnore: true*/ file);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return "none";
  }
}

export function readProviderSettings(file = providersFilePath()): { settings: ProviderSettings; warnings: string[] } {
  let text: string;
  try {
    text = readFileSync(/*turbopackIgnore: true*/ file, "utf8");
  } catch {
    return { settings: {}, warnings: [] };
  }
  try {
    return parseProviderSettings(JSON.parse(text));
  } catch {
    return { settings: {}, warnings: [`${file} is not valid JSON; its settings are ignored until it is saved again`] };
  }
}

export function writeProviderSettings(settings: ProviderSettings, file = providersFilePath()): void {
  mkdirSync(/*turbopackIgnore: true*/ path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(/*turbopackIgnore: true*/ tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  chmodSync(/*turbopackIgnore: true*/ tmp, 0o600);
  renameSync(/*turbopackIgnore: true*/ tmp, file);
}

/** Applies a change from the page: a key / base URL sets it, null removes it, undefined keeps it. */
export function updateProviderSettings(
  change: { provider: PageProvider; apiKey?: string | null; baseURL?: string | null } | { contextWindow: { ref: string; tokens: number | null } },
  file = providersFilePath(),
): ProviderSettings {
  const { settings } = readProviderSettings(file);
  const next: ProviderSettings = structuredClone(settings);
  if ("contextWindow" in change) {
    const windows = { ...next.contextWindows };
    if (change.contextWindow.tokens === null) delete windows[change.contextWindow.ref];
    else windows[change.contextWindow.ref] = change.contextWindow.tokens;
    next.contextWindows = Object.keys(windows).length ? windows : undefined;
  } else if (change.provider === "compatible") {
    const baseURL = change.baseURL === undefined ? next.compatible?.baseURL : (change.baseURL ?? undefined);
    const apiKey = change.apiKey === undefined ? next.compatible?.apiKey : (change.apiKey ?? undefined);
    next.compatible = baseURL ? { baseURL, ...(apiKey ? { apiKey } : {}) } : undefined;
  } else {
    const p = change.provider;
    const apiKey = change.apiKey === undefined ? next[p]?.apiKey : (change.apiKey ?? undefined);
    const baseURL = change.baseURL === undefined ? next[p]?.baseURL : (change.baseURL ?? undefined);
    next[p] = apiKey || baseURL ? { ...(apiKey ? { apiKey } : {}), ...(baseURL ? { baseURL } : {}) } : undefined;
  }
  const clean = JSON.parse(JSON.stringify(next)) as ProviderSettings; // drops the undefined parts
  writeProviderSettings(clean, file);
  return clean;
}

const KEY = Symbol.for("arbor.chat.settings-registry");
type Global = typeof globalThis & { [KEY]?: { version: string; registry: ProviderRegistry } };

/** The registry of the environment plus the page's settings, rebuilt when the file changes. */
export function settingsRegistry(file = providersFilePath()): ProviderRegistry {
  const g = globalThis as Global;
  const v = version(file);
  if (g[KEY]?.version !== v) {
    const { settings } = readProviderSettings(file);
    g[KEY] = { version: v, registry: createProviderRegistry(mergeRegistryConfig(registryConfigFromEnv(env), settings)) };
  }
  return g[KEY].registry;
}

export type KeySource = "page" | "environment" | null;

export interface ProviderStatus {
  provider: PageProvider;
  label: string;
  /** Whether a key is set, and where from. The key itself never leaves the server. */
  keySource: KeySource;
  baseURL: string | null;
  baseURLSource: KeySource;
}

const LABELS: Record<PageProvider, string> = { openai: "OpenAI", anthropic: "Anthropic", compatible: "OpenAI-compatible server" };

/** What the page shows of each provider (never a key), and the per-model windows set there. */
export function providerStatus(file = providersFilePath()): { providers: ProviderStatus[]; contextWindows: Record<string, number>; warnings: string[] } {
  const { settings, warnings } = readProviderSettings(file);
  const source = (page: unknown, fromEnv: unknown): KeySource => (page ? "page" : fromEnv ? "environment" : null);
  const providers: ProviderStatus[] = [
    ...(["openai", "anthropic"] as const).map((p) => {
      const envKey = p === "openai" ? env.OPENAI_API_KEY : env.ANTHROPIC_API_KEY;
      return { provider: p, label: LABELS[p], keySource: source(settings[p]?.apiKey, envKey), baseURL: settings[p]?.baseURL ?? null, baseURLSource: source(settings[p]?.baseURL, null) };
    }),
    {
      provider: "compatible",
      label: LABELS.compatible,
      keySource: source(settings.compatible?.apiKey, settings.compatible ? undefined : env.ARBOR_OPENAI_API_KEY),
      baseURL: settings.compatible?.baseURL ?? env.ARBOR_OPENAI_BASE_URL ?? null,
      baseURLSource: source(settings.compatible?.baseURL, env.ARBOR_OPENAI_BASE_URL),
    },
  ];
  return { providers, contextWindows: settings.contextWindows ?? {}, warnings };
}
