/**
 * Secrets in sessions (docs/secrets.md): the scanner and THE way out.
 *
 * `maskSecrets(value)` is the one function every path that takes session content out of Arbor
 * calls before it leaves: the JSONL and HTML exports, summary prompts sent to a model, and the
 * future "Continue in…" hand-off and MCP answers. It returns `value` with every secret the
 * scanner finds in any of its strings replaced by its mask (mask.ts), copying only what it
 * changes; the same object when nothing is found. `maskSecretsInText` is the same for one text.
 * Server side (secretlint); the browser masks with stored findings instead (mask.ts
 * maskWithFindings).
 */
import { mayHoldSecret } from "./candidates";
import { maskRanges, maskWithFindings } from "./mask";
import { scanText } from "./scanner";
import { scanValue } from "./scan-value";

export { mayHoldSecret } from "./candidates";
export { maskEntryWithFindings, maskValue, maskWithFindings } from "./mask";
export { type SecretMatch, scanText } from "./scanner";
export { fieldOf, scanEntry, scanValue } from "./scan-value";
export type { SecretField, SecretFinding, SessionSecrets, ValueFinding } from "./types";

/** `value` with every secret found in its strings masked (see the header). */
export async function maskSecrets<T>(value: T): Promise<T> {
  if (typeof value === "string") return (await maskSecretsInText(value)) as T;
  const found = await scanValue(value);
  return found.length === 0 ? value : maskWithFindings(value, found);
}

/** `text` with every secret the scanner finds in it masked. */
export async function maskSecretsInText(text: string): Promise<string> {
  if (!mayHoldSecret(text)) return text;
  const found = await scanText(text);
  return found.length === 0 ? text : maskRanges(text, found);
}
export { countSecretsInBytes } from "./count-bytes";
