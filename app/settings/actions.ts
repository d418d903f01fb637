"use server";
/**
 * Server actions of the Settings page (conventions rule 3): parse, authorize, delegate
 * (lib/chat/provider-settings.ts), and answer with the page's view — which never holds a key.
 *
 * - saveProvider({ provider, apiKey?, baseURL? }) → ProvidersView. A key or URL sets it, null
 *   removes it, an absent field keeps it. The key is written to the data folder (0600) only.
 * - saveContextWindow({ ref, tokens }) → ProvidersView (tokens null: back to the catalogue's window).
 * Failures are values: invalid_input (with the field in `message`), forbidden.
 */
import { z } from "zod";
import type { ActionResult } from "@/lib/action-result";
import { requireUser } from "@/lib/auth/guard";
import { updateProviderSettings } from "@/lib/chat/provider-settings";
import { type ProvidersView, providersView } from "@/lib/chat/providers-view";
import { PAGE_PROVIDERS } from "@/lib/llm/provider-config";

const url = z
  .string({ error: "expected the URL as text" })
  .trim()
  .max(2000, { error: "the URL is too long" })
  .refine((u) => /^https?:\/\/[^\s]+$/i.test(u) && URL.canParse(u), { error: "expected an http:// or https:// URL" });
const key = z
  .string({ error: "expected the key as text" })
  .trim()
  .min(1, { error: "the key is empty" })
  .max(4096, { error: "the key is too long" })
  .refine((k) => !/[\s\u0000-\u001f]/.test(k), { error: "the key must not contain spaces or control characters" });

const providerSchema = z
  .object({
    provider: z.enum(PAGE_PROVIDERS, { error: `expected one of ${PAGE_PROVIDERS.join(", ")}` }),
    apiKey: key.nullable().optional(),
    baseURL: url.nullable().optional(),
  })
  .strict()
  .refine((v) => v.provider !== "compatible" || v.baseURL !== undefined || v.apiKey !== undefined, { error: "nothing to save" });
const windowSchema = z
  .object({
    ref: z.string().regex(/^[^/\s]+\/\S+$/, { error: 'expected a "provider/modelId" string' }),
    tokens: z
      .number({ error: "expected the window as a number of tokens, or null" })
      .int({ error: "expected a whole number of tokens" }).min(1000, { error: "a window is at least 1,000 tokens" }).max(100_000_000).nullable(),
  })
  .strict();

function invalid(error: z.ZodError): ActionResult<never> {
  return { ok: false, error: "invalid_input", message: error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ") };
}

export async function saveProvider(input: unknown): Promise<ActionResult<ProvidersView>> {
  const parsed = providerSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  updateProviderSettings(parsed.data);
  return { ok: true, data: await providersView() };
}

export async function saveContextWindow(input: unknown): Promise<ActionResult<ProvidersView>> {
  const parsed = windowSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  updateProviderSettings({ contextWindow: parsed.data });
  return { ok: true, data: await providersView() };
}
