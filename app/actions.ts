"use server";
/** Server actions of the session list: parse, delegate, return typed results (conventions rule 3). */
import { z } from "zod";
import { createSession as createSessionRow } from "@/lib/db/sessions";
import type { ActionResult } from "@/lib/action-result";

const createSessionSchema = z.object({ title: z.string().trim().max(200).optional() }).strict();

export async function createSession(input: unknown = {}): Promise<ActionResult<{ id: string }>> {
  const parsed = createSessionSchema.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, error: "invalid_input", message: parsed.error.issues[0]?.message };
  const session = await createSessionRow({ title: parsed.data.title });
  return { ok: true, data: { id: session.id } };
}
