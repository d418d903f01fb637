/**
 * The shapes of found secrets, shared by the scanner (server), the store (lib/db) and the views.
 * Types only, browser-safe. A finding never holds the secret: only where it is and its masked form.
 */

/** Which part of an entry a secret was found in (docs/secrets.md). */
export type SecretField = "message text" | "thinking" | "tool call arguments" | "tool output" | "custom entry" | "summary" | "other";

/** A secret inside one string of a JSON value. */
export interface ValueFinding {
  /** JSON Pointer (RFC 6901) of the string inside the value, e.g. "/message/content/1/arguments/command". */
  path: string;
  /** UTF-16 offsets of the secret in that string (end exclusive). */
  start: number;
  end: number;
  /** `<short rule id>/<message id>` of the secretlint rule that reported it, e.g. "github/GITHUB_TOKEN". */
  rule: string;
  /** Human name, e.g. "GitHub token". */
  kind: string;
  /** What is shown instead of the secret (mask.ts maskValue / maskedPreview). */
  masked: string;
}

/** A secret found in a session entry, as stored (lib/db/secret-findings.ts) and listed on the session page. */
export interface SecretFinding extends ValueFinding {
  entryId: string;
  /** The entry's position in file order. */
  seq: number;
  field: SecretField;
}

/** A session's findings, in file order (the session page's list). */
export interface SessionSecrets {
  count: number;
  findings: SecretFinding[];
}
