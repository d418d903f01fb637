"use server";
/** Server actions of the session list and the Trash: parse, delegate, return typed results (conventions rule 3). */
import { noControlChars, notAnObject, sessionIdSchema } from "@/lib/id-schema";
import { z } from "zod";
import type { ActionResult } from "@/lib/action-result";
import {
  createSession as createSessionRow,
  DATABASE_UNAVAILABLE_MESSAGE,
  deleteForGood,
  isDatabaseUnavailable,
  NotFoundError,
  renameSession as renameSessionRow,
  restoreSession as restoreSessionRow,
  softDeleteSession,
} from "@/lib/db";
import { requireUser } from "@/lib/auth/guard";

const createSessionSchema = z.object({ title: z.string().trim().max(200).superRefine(noControlChars("The title")).optional() }).strict();
const renameSchema = z
  .object(
    { id: sessionIdSchema, title: z.string({ error: "The title must be text" }).max(1000, "The title is too long").superRefine(noControlChars("The title")) },
    { error: notAnObject("Expected { id, title }") },
  )
  .strict();
const byIdSchema = z.object({ id: sessionIdSchema }, { error: notAnObject("Expected { id }") }).strict();

function invalid(error: z.ZodError): { ok: false; error: "invalid_input"; message?: string } {
  return { ok: false, error: "invalid_input", message: error.issues[0]?.message };
}

/** Expected store failures (and a lost database) become values; anything else is a bug and is rethrown. */
async function settle<T>(run: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    if (error instanceof NotFoundError) return { ok: false, error: "not_found", message: "This session no longer exists." };
    if (isDatabaseUnavailable(error)) return { ok: false, error: "failed", message: DATABASE_UNAVAILABLE_MESSAGE };
    throw error;
  }
}

export async function createSession(input: unknown = {}): Promise<ActionResult<{ id: string }>> {
  const parsed = createSessionSchema.safeParse(input ?? {});
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return settle(async () => ({ id: (await createSessionRow({ title: parsed.data.title })).id }));
}

/** Renames a session; an empty title clears it (the list then shows "Untitled session"). */
export async function renameSession(input: unknown): Promise<ActionResult<{ id: string; title: string | null }>> {
  const parsed = renameSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return settle(async () => {
    const meta = await renameSessionRow({ id: parsed.data.id, title: parsed.data.title });
    return { id: meta.id, title: meta.title };
  });
}

/** Moves a session to the trash; `restoreSession` undoes it. */
export async function deleteSession(input: unknown): Promise<ActionResult<{ id: string }>> {
  const parsed = byIdSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return settle(async () => ({ id: (await softDeleteSession({ id: parsed.data.id })).id }));
}

export async function restoreSession(input: unknown): Promise<ActionResult<{ id: string }>> {
  const parsed = byIdSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return settle(async () => ({ id: (await restoreSessionRow({ id: parsed.data.id })).id }));
}

/** Deletes a session in the trash for good ("Delete now" in the Trash); one not in the trash is not_found. */
export async function deleteSessionForGood(input: unknown): Promise<ActionResult<{ id: string }>> {
  const parsed = byIdSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return settle(async () => {
    await deleteForGood({ id: parsed.data.id });
    return { id: parsed.data.id };
  });
}
