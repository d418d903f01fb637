/**
 * The zod schema of an id taken from a request (route segment, query, body, action input).
 * Session and entry ids are kept from imported files (spec §1.6), so any short string is an
 * id, except one with a NUL character: PostgreSQL cannot store or compare U+0000 in text, and a
 * query with one fails with a database error (a 500) instead of "not found". Refused with a
 * 400 / invalid_input before it reaches the database.
 */
import { z } from "zod";

export const MAX_ID_LENGTH = 200;

/** `what` names the id in messages: "expected the session id", "the entry id is too long". */
export function idSchema(what: string) {
  return z
    .string({ error: `expected the ${what} id` })
    .trim()
    .min(1, { error: `expected the ${what} id` })
    .max(MAX_ID_LENGTH, { error: `the ${what} id is too long` })
    .refine((s) => !s.includes("\u0000"), { error: `the ${what} id must not contain a NUL character` });
}
