"use server";
/**
 * Server actions of the session workspace: parse, delegate, return typed results (conventions
 * rule 3; lib/chat/session-edits.ts does the work). Compaction and navigation stream, so they
 * are route handlers (app/api/sessions/[id]/compact, …/navigate), not actions.
 *
 * - setLabel({ sessionId, entryId, label }) → { entryId, labelEntryId, leafId } ("" clears)
 * - setPin({ sessionId, entryId, pinned }) → { entryId, pinEntryId, pinned, leafId } (session-engine.md §19)
 * - setArchive({ sessionId, entryId, archived }) → { entryId, archiveEntryId, archived, leafId } (§19.4)
 * - forkSession({ sessionId, entryId, title? }) → { id } (the new session)
 * - undoNavigation({ sessionId, leafId, expectedLeafId }) → { leafId }: moves the leaf back to
 *   `leafId` (the leaf before the navigation; null = before the first entry) if the session is
 *   still at `expectedLeafId`
 * - updateSessionSettings({ sessionId, settings?, chatModel?, compactionModel?, tools? }) →
 *   { settings (effective), override, agent }. `settings` is a partial override validated by
 *   lib/settings (null on a key removes it; `settings: null` removes them all); `chatModel` /
 *   `compactionModel` are "provider/modelId" (null = back to the default); `tools` is
 *   `{ enabled: ToolName[] }` (null = all tools).
 * Failures are values: invalid_input (with the field errors in `message`), not_found, conflict.
 */
import { entryIdSchema, noControlChars, sessionIdSchema } from "@/lib/id-schema";
import { z } from "zod";
import type { ActionResult } from "@/lib/action-result";
import { toolSwitchSchema } from "@/lib/chat-protocol/session-config";
import {
  changeSessionSettings,
  forkFromEntry,
  labelEntry,
  pinEntry,
  archiveBranch,
  moveLeafBack,
  type SessionSettingsView,
} from "@/lib/chat/session-edits";
import { requireUser } from "@/lib/auth/guard";

const modelRef = z
  .string({ error: 'expected a "provider/modelId" string' })
  .regex(/^[^/\s]+\/\S+$/, { error: 'expected a "provider/modelId" string' });

const setLabelSchema = z
  .object({
    sessionId: sessionIdSchema,
    entryId: entryIdSchema,
    label: z.string({ error: 'expected the label as text ("" removes it)' }).max(200, { error: "the label is too long" }).superRefine(noControlChars("the label")),
  })
  .strict();
const setPinSchema = z
  .object({ sessionId: sessionIdSchema, entryId: entryIdSchema, pinned: z.boolean({ error: "expected pinned as true or false" }) })
  .strict();
const setArchiveSchema = z
  .object({ sessionId: sessionIdSchema, entryId: entryIdSchema, archived: z.boolean({ error: "expected archived as true or false" }) })
  .strict();
const forkSchema = z
  .object({ sessionId: sessionIdSchema, entryId: entryIdSchema, title: z.string().trim().max(200).superRefine(noControlChars("the title")).optional() })
  .strict();
const undoSchema = z
  .object({ sessionId: sessionIdSchema, leafId: entryIdSchema.nullable(), expectedLeafId: entryIdSchema.nullable() })
  .strict();
const settingsSchema = z
  .object({
    sessionId: sessionIdSchema,
    settings: z.record(z.string(), z.unknown(), { error: "expected an object of settings" }).nullable().optional(),
    chatModel: modelRef.nullable().optional(),
    compactionModel: modelRef.nullable().optional(),
    tools: toolSwitchSchema.nullable().optional(),
    projectDir: z.string().max(4096).nullable().optional(),
  })
  .strict();

function invalid(error: z.ZodError): { ok: false; error: "invalid_input"; message: string } {
  const message = error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
  return { ok: false, error: "invalid_input", message };
}

export async function setLabel(
  input: unknown,
): Promise<ActionResult<{ entryId: string; labelEntryId: string; leafId: string | null }>> {
  const parsed = setLabelSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return labelEntry(parsed.data);
}

export async function setPin(
  input: unknown,
): Promise<ActionResult<{ entryId: string; pinEntryId: string; pinned: boolean; leafId: string | null }>> {
  const parsed = setPinSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return pinEntry(parsed.data);
}

export async function setArchive(
  input: unknown,
): Promise<ActionResult<{ entryId: string; archiveEntryId: string; archived: boolean; leafId: string | null }>> {
  const parsed = setArchiveSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return archiveBranch(parsed.data);
}

export async function forkSession(input: unknown): Promise<ActionResult<{ id: string }>> {
  const parsed = forkSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  const { title, ...rest } = parsed.data;
  return forkFromEntry({ ...rest, ...(title ? { title } : {}) });
}

export async function undoNavigation(input: unknown): Promise<ActionResult<{ leafId: string | null }>> {
  const parsed = undoSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return moveLeafBack(parsed.data);
}

export async function updateSessionSettings(input: unknown): Promise<ActionResult<SessionSettingsView>> {
  const parsed = settingsSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const auth = await requireUser();
  if (!auth.ok) return auth;
  const { sessionId, settings, chatModel, compactionModel, tools, projectDir } = parsed.data;
  return changeSessionSettings({
    sessionId,
    ...(settings !== undefined ? { settings } : {}),
    ...(chatModel !== undefined ? { chatModel } : {}),
    ...(compactionModel !== undefined ? { compactionModel } : {}),
    ...(tools !== undefined ? { tools } : {}),
    ...(projectDir !== undefined ? { projectDir } : {}),
  });
}
