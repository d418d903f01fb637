import "server-only";
/**
 * JSON text that PostgreSQL's `jsonb` and `text` accept.
 *
 * PostgreSQL cannot store U+0000 in `text` or `jsonb` ("unsupported Unicode escape sequence"),
 * and rejects escaped lone surrogates (`"\ud800"`), both of which JSON.stringify can produce from
 * tool output. Rather than failing a whole import over one byte, each such character becomes
 * U+FFFD (the replacement character). Everything else is byte-for-byte JSON.stringify.
 *
 * Cost: one `includes` scan of the JSON text; the regex runs only when a candidate is present.
 */

import type { Prisma } from "@/generated/prisma/client";

/** `\u0000` or an escaped (hence lone: JSON.stringify writes pairs raw) surrogate, preceded by an even number of backslashes (so not `\\u0000`). */
const BAD_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/g;

export function toPgJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) return "null";
  if (!json.includes("\\u0000") && !/\\u[dD][89a-fA-F]/.test(json)) return json;
  return json.replace(BAD_ESCAPE, "$1\\ufffd");
}

/** `value` with the same replacements, as a value for the typed client's Json fields. */
export function toPgJsonValue(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(toPgJson(value)) as Prisma.InputJsonValue;
}

/** Lone surrogates and U+0000: the characters PostgreSQL `text` cannot hold. */
const BAD_CHARS = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A string PostgreSQL `text` accepts: the same replacements as toPgJson. */
export function toPgText(value: string): string {
  return value.replace(BAD_CHARS, "\ufffd");
}
