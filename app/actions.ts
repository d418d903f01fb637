"use server";
/** Server actions of the session list: parse, delegate, return typed results (conventions rule 3). */
import { z } from "zod";
import type { ActionResult } from "@/lib/action-result";
import {
  createSession as createSessionRow,
  NotFoundError,
  renameSession as renameSessionRow,
  restoreSession as restoreSessionRow,
  softDeleteSession,
} from "@/lib/db/session-store";

const createSessionSchema = z.object({ title: z.string().trim().max(200).optional() }).strict();
const idSchema = z.string().trim().min(1, "A session id is required").max(200);
const renameSchema = z.object({ id: idSchema, title: z.string().max(1000, "The title is too long") }).strict();
const byIdSchema = z.object({ id: idSchema }).strict();

function invalid(error: z.ZodError): { ok: false; error: "invalid_input"; message?: string } {
  return { ok: false, error: "invalid_input", message: error.issues[0]?.message };
}

/** Expected store failures become values; anything else is a bug and is rethrown. */
async function settle<T>(run: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    if (error instanceof NotFoundError) return { ok: false, error: "not_found", message: "This session no longer exists." };
    throw error;
  }
}

export async function createSession(input: unknown = {}): Promise<ActionResult<{ id: string }>> {
  const parsed = createSessionSchema.safeParse(input ?? {});
  if (!parsed.success) return invalid(parsed.error);
  const session = await createSessionRow({ title: parsed.data.title });
  return { ok: true, data: { id: session.id } };
}

/** Renames a session; an empty title clears it (the list then shows "Untitled session"). */
export async function renameSession(input: unknown): Promise<ActionResult<{ id: string; title: string | null }>> {
  const parsed = renameSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  return settle(async () => {
    const meta = await renameSessionRow({ id: parsed.data.id, title: parsed.data.title });
    return { id: meta.id, title: meta.title };
  });
}

/** Moves a session to the trash; `restoreSession` undoes it. */
export async function deleteSession(input: unknown): Promise<ActionResult<{ id: string }>> {
  const parsed = byIdSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  return settle(async () => ({ id: (await softDeleteSession({ id: parsed.data.id })).id }));
}

export async function restoreSession(input: unknown): Promise<ActionResult<{ id: string }>> {
  const parsed = byIdSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  return settle(async () => ({ id: (await restoreSessionRow({ id: parsed.data.id })).id }));
}
