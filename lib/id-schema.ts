/**
 * The zod schema of an id taken from a request (route segment, query, body, action input), and
 * the check for short user text (titles, labels).
 * Session and entry ids are kept from imported files (session-engine.md §1.6), so any short string is an
 * id, except one with a control character (U+0000–U+001F, U+007F): PostgreSQL cannot store or
 * compare U+0000 in text, and a query with one fails with a database error (a 500) instead of
 * "not found"; the other control characters are never part of a real id. Refused with a 400 /
 * invalid_input before it reaches the database.
 */
import { z } from "zod";

export const MAX_ID_LENGTH = 200;

/** Control characters an id may not hold. */
export const ID_CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** Control characters short user text may not hold: all but tab, line feed and carriage return. */
export const TEXT_CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** "U+0000 at position 4": where the first control character is, for messages. */
export function describeControlChar(s: string, re: RegExp): string {
  const at = s.search(re);
  const code = s.charCodeAt(at).toString(16).toUpperCase().padStart(4, "0");
  return `U+${code} at position ${at + 1}`;
}

/** `what` names the id in messages: "expected the session id", "the entry id is too long". */
export function idSchema(what: string) {
  return z
    .string({ error: `expected the ${what} id` })
    .trim()
    .min(1, { error: `expected the ${what} id` })
    .max(MAX_ID_LENGTH, { error: `the ${what} id is too long` })
    .superRefine((s, ctx) => {
      if (!ID_CONTROL_CHARS.test(s)) return;
      ctx.addIssue({
        code: "custom",
        message: `the ${what} id must not contain control characters such as NUL (found ${describeControlChar(s, ID_CONTROL_CHARS)})`,
      });
    });
}

/** A session id: kept from imported files, so any short printable string. */
export const sessionIdSchema = idSchema("session");
/** An entry id: session-scoped (session-engine.md §1.6), any short printable string. */
export const entryIdSchema = idSchema("entry");

/** A zod `error` option: `message` when the input is not of the expected type (e.g. not an object). */
export const notAnObject = (message: string) => (issue: { code: string }) => (issue.code === "invalid_type" ? message : undefined);

/** Refines a text schema: `what` ("the title", "the label") must not hold control characters. */
export function noControlChars(what: string) {
  return (s: string, ctx: z.RefinementCtx) => {
    if (!TEXT_CONTROL_CHARS.test(s)) return;
    ctx.addIssue({ code: "custom", message: `${what} must not contain control characters such as NUL (found ${describeControlChar(s, TEXT_CONTROL_CHARS)})` });
  };
}
