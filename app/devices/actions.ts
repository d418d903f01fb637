"use server";
/**
 * "Signed-in devices": sign one device out, or every other one; make or revoke an MCP token
 * (docs/mcp.md "Over HTTP": the token is shown once, in the answer of its making; only its sha256
 * is stored, lib/mcp/tokens.ts). Conventions rule 3: parse, authorize, delegate, typed result. The browser asking cannot end its own session here: its
 * "Sign out" is the header's button, which also clears its cookie.
 */
import { z } from "zod";
import type { ActionResult } from "@/lib/action-result";
import { requireUser } from "@/lib/auth/guard";
import { signOutDevice as deleteDevice, signOutOtherDevices as deleteOtherDevices } from "@/lib/auth/sessions";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "@/lib/db";
import { TEXT_CONTROL_CHARS } from "@/lib/id-schema";
import { MCP_TOKEN_NAME_MAX, makeMcpToken, revokeMcpToken as deleteToken } from "@/lib/mcp/tokens";

const byIdSchema = z.object({ id: z.string({ error: "A device id is required" }).uuid("Not a device id") }, { error: "Expected { id }" }).strict();
const makeSchema = z
  .object({
    name: z
      .string({ error: "A name for the token is required" })
      .trim()
      .min(1, { error: "A name for the token is required (which agent or machine uses it)" })
      .max(MCP_TOKEN_NAME_MAX, { error: `A token's name is at most ${MCP_TOKEN_NAME_MAX} characters` })
      .refine((s) => !TEXT_CONTROL_CHARS.test(s), { error: "A token's name must not contain control characters" }),
  }, { error: "Expected { name }" })
  .strict();
const tokenIdSchema = z.object({ id: z.uuid({ error: "Not a token id" }) }, { error: "Expected { id }" }).strict();

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

/** A new token: `token` is shown this once and never again. */
export async function makeMcpTokenAction(input: unknown): Promise<ActionResult<{ id: string; name: string; token: string }>> {
  const parsed = makeSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid_input", message: parsed.error.issues[0]?.message };
  const auth = await requireUser();
  if (!auth.ok) return auth;
  return settle(async () => {
    const { row, token } = await makeMcpToken(parsed.data.name);
    return { id: row.id, name: row.name, token };
  });
}

export async function revokeMcpTokenAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  const parsed = tokenIdSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid_input", message: parsed.error.issues[0]?.message };
  const auth = await requireUser();
  if (!auth.ok) return auth;
  const deleted = await settle(() => deleteToken(parsed.data.id));
  if (!deleted.ok) return deleted;
  if (!deleted.data) return { ok: false, error: "not_found", message: "That token is already revoked." };
  return { ok: true, data: { id: parsed.data.id } };
}
