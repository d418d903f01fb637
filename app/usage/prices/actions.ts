"use server";
/**
 * Server actions of the Prices page (docs/usage.md "Prices"): set or remove the user's own price
 * of a model. Prices arrive as dollars per million tokens (text, up to six decimals) and are kept
 * as whole millionths of a dollar per million tokens; the stored ledger is repriced at once.
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ActionResult } from "@/lib/action-result";
import { requireUser } from "@/lib/auth/guard";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, removePriceOverride, setPriceOverride } from "@/lib/db";
import { noControlChars } from "@/lib/id-schema";
import { parseDollarsPerMillion } from "@/lib/usage/prices";

const price = (label: string, optional: boolean) =>
  z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === "" && optional) return undefined;
      const value = parseDollarsPerMillion(text);
      if (value === undefined) {
        ctx.addIssue({ code: "custom", message: `${label}: a price in dollars per million tokens, like 3 or 0.075 (at most six decimals)` });
        return z.NEVER;
      }
      return value;
    });

const modelSchema = z.string().trim().min(1, "The model id is empty").max(200, "The model id is too long").superRefine(noControlChars("The model id"));

const setSchema = z.object({
  model: modelSchema,
  input: price("Input", false),
  output: price("Output", false),
  cacheRead: price("Cache read", true),
  cacheWrite: price("Cache write", true),
});

const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/** Runs a signed-in user's change; a lost database is a value, anything else a bug. */
async function settle(run: () => Promise<number>): Promise<ActionResult<{ repriced: number }>> {
  try {
    const repriced = await run();
    revalidatePath("/usage");
    revalidatePath("/usage/prices");
    return { ok: true, data: { repriced } };
  } catch (error) {
    if (isDatabaseUnavailable(error)) return { ok: false, error: "failed", message: DATABASE_UNAVAILABLE_MESSAGE };
    throw error;
  }
}

export async function setModelPrice(_prev: ActionResult<{ repriced: number }> | null, form: FormData): Promise<ActionResult<{ repriced: number }>> {
  const parsed = setSchema.safeParse({
    model: field(form, "model"),
    input: field(form, "input"),
    output: field(form, "output"),
    cacheRead: field(form, "cacheRead"),
    cacheWrite: field(form, "cacheWrite"),
  });
  if (!parsed.success) return { ok: false, error: "invalid_input", message: parsed.error.issues[0]?.message };
  const { model, input, output, cacheRead, cacheWrite } = parsed.data;
  if (input === undefined || output === undefined) return { ok: false, error: "invalid_input", message: "Input and output prices are required" };
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return settle(() =>
    setPriceOverride({ model, input, output, ...(cacheRead !== undefined ? { cacheRead } : {}), ...(cacheWrite !== undefined ? { cacheWrite } : {}) }),
  );
}

export async function removeModelPrice(_prev: ActionResult<{ repriced: number }> | null, form: FormData): Promise<ActionResult<{ repriced: number }>> {
  const parsed = modelSchema.safeParse(field(form, "model"));
  if (!parsed.success) return { ok: false, error: "invalid_input", message: parsed.error.issues[0]?.message };
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return settle(() => removePriceOverride({ model: parsed.data }));
}
