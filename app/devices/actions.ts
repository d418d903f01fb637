"use server";
/**
 * "Signed-in devices": sign one device out, or every other one (conventions rule 3: parse,
 * authorize, delegate, typed result). The browser asking cannot end its own session here: its
 * "Sign out" is the header's button, which also clears its cookie.
 */
import { z } from "zod";
import type { ActionResult } from "@/lib/action-result";
import { requireUser } from "@/lib/auth/guard";
import { signOutDevice as deleteDevice, signOutOtherDevices as deleteOtherDevices } from "@/lib/auth/sessions";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "@/lib/db";

const byIdSchema = z.object({ id: z.string({ error: "A device id is required" }).uuid("Not a device id") }, { error: "Expected { id }" }).strict();
const noInputSchema = z.object({}).strict().optional();

const SIGN_IN_OFF = { ok: false, error: "invalid_input", message: "Sign-in is off: there are no devices to sign out." } as const;

async function settle<T>(run: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    if (isDatabaseUnavailable(error)) return { ok: false, error: "failed", message: DATABASE_UNAVAILABLE_MESSAGE };
    throw error;
  }
}

export async function signOutDevice(input: unknown): Promise<ActionResult<{ id: string }>> {
  const parsed = byIdSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid_input", message: parsed.error.issues[0]?.message };
  const auth = await requireUser();
  if (!auth.ok) return auth;
  if (!auth.user.sessionId) return SIGN_IN_OFF;
  if (parsed.data.id === auth.user.sessionId) return { ok: false, error: "invalid_input", message: "To sign out this device, use “Sign out”." };
  const deleted = await settle(() => deleteDevice(parsed.data.id));
  if (!deleted.ok) return deleted;
  if (!deleted.data) return { ok: false, error: "not_found", message: "That device is already signed out." };
  return { ok: true, data: { id: parsed.data.id } };
}

export async function signOutOtherDevices(input: unknown = undefined): Promise<ActionResult<{ signedOut: number }>> {
  const parsed = noInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid_input", message: "Expected no input" };
  const auth = await requireUser();
  if (!auth.ok) return auth;
  const keep = auth.user.sessionId;
  if (!keep) return SIGN_IN_OFF;
  return settle(async () => ({ signedOut: await deleteOtherDevices(keep) }));
}
