/**
 * The providers set in the Settings page (ui.md "Settings"), as stored in the data folder, and how
 * they combine with the environment. Pure: no file, network or env access (lib/chat/provider-settings.ts
 * reads and writes the file; lib/llm/providers.ts builds the registry).
 *
 * Contract:
 * - `parseProviderSettings(raw)` never throws: a broken or hand-edited document keeps what is valid
 *   and reports the rest in `warnings` (the file's keys are never part of a warning).
 * - `mergeRegistryConfig(fromEnv, page)` — a provider set in the page wins over the environment's for
 *   that provider (its key and base URL); an empty key in the page means "none here, use the
 *   environment's". The compatible server's model list and window from the environment stay
 *   when the page names the same base URL. Per-model context windows come from the page.
 */
import { z } from "zod";
import type { ProviderRegistryConfig } from "@/lib/llm/providers";

const key = z.string().trim().min(1).max(4096).optional();
const baseURL = z
  .string()
  .trim()
  .url({ error: "expected an http(s) URL" })
  .refine((u) => /^https?:\/\//i.test(u), { error: "expected an http(s) URL" })
  .optional();

export const providerSettingsSchema = z.object({
  openai: z.object({ apiKey: key, baseURL }).optional(),
  anthropic: z.object({ apiKey: key, baseURL }).optional(),
  /** One OpenAI-compatible server (Ollama, LM Studio, llama.cpp, vLLM, a gateway). */
  compatible: z.object({ baseURL: z.string().trim().url({ error: "expected an http(s) URL" }), apiKey: key }).optional(),
  /** Context windows by model ref ("provider/id"), in tokens. */
  contextWindows: z.record(z.string().min(3).max(300), z.number().int().positive().max(100_000_000)).optional(),
});

export type ProviderSettings = z.infer<typeof providerSettingsSchema>;

export const PAGE_PROVIDERS = ["openai", "anthropic", "compatible"] as const;
export type PageProvider = (typeof PAGE_PROVIDERS)[number];

export function parseProviderSettings(raw: unknown): { settings: ProviderSettings; warnings: string[] } {
  const whole = providerSettingsSchema.safeParse(raw);
  if (whole.success) return { settings: whole.data, warnings: [] };
  // Keep each valid part: one bad field must not lose the rest.
  const settings: ProviderSettings = {};
  const warnings: string[] = [];
  const doc = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  for (const part of [...PAGE_PROVIDERS, "contextWindows"] as const) {
    if (doc[part] === undefined) continue;
    const one = providerSettingsSchema.pick({ [part]: true } as { [K in typeof part]: true }).safeParse({ [part]: doc[part] });
    if (one.success) Object.assign(settings, one.data);
    else warnings.push(`Ignored the stored ${part} settings: ${one.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return { settings, warnings };
}

export function mergeRegistryConfig(fromEnv: ProviderRegistryConfig, page: ProviderSettings): ProviderRegistryConfig {
  const out: ProviderRegistryConfig = { ...fromEnv };
  for (const p of ["openai", "anthropic"] as const) {
    const set = page[p];
    const apiKey = set?.apiKey ?? fromEnv[p]?.apiKey;
    if (apiKey) {
      const url = set?.baseURL ?? fromEnv[p]?.baseURL;
      out[p] = { ...fromEnv[p], apiKey, ...(url ? { baseURL: url } : {}) };
    }
  }
  const compat = page.compatible;
  if (compat) {
    const same = fromEnv.compatible && fromEnv.compatible.baseURL.replace(/\/+$/, "") === compat.baseURL.replace(/\/+$/, "");
    const apiKey = compat.apiKey ?? (same ? fromEnv.compatible?.apiKey : undefined);
    out.compatible = { ...(same ? fromEnv.compatible : {}), baseURL: compat.baseURL, ...(apiKey ? { apiKey } : {}) };
  }
  if (page.contextWindows) out.contextWindows = { ...fromEnv.contextWindows, ...page.contextWindows };
  return out;
}
