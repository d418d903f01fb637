/**
 * Sanitizing before a write, and export file names (session-engine.md §1.9).
 * Pure: no network, disk or database access. Never mutates its input.
 */

/** Longest string persisted as-is, in UTF-16 code units (session-engine.md §1.9). */
export const MAX_PERSIST_CHARS = 500_000;

/** Appended to every string cut by sanitizeForPersist. */
export const PERSIST_TRUNCATION_NOTICE = "\n\n[Session persistence truncated large content]";

/** Streaming-only keys that must never reach storage (session-engine.md §1.9). */
const DROPPED_KEYS = new Set(["partialJson", "jsonlEvents"]);

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Cuts to MAX_PERSIST_CHARS − notice length without splitting a surrogate pair, then appends the notice. */
export function truncateForPersist(value: string): string {
  if (value.length <= MAX_PERSIST_CHARS) return value;
  let end = MAX_PERSIST_CHARS - PERSIST_TRUNCATION_NOTICE.length;
  // A high surrogate as the last kept unit would be separated from its low half.
  if (isHighSurrogate(value.charCodeAt(end - 1))) end -= 1;
  return value.slice(0, end) + PERSIST_TRUNCATION_NOTICE;
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** What sanitizeForPersist cut, filled in when the caller passes one (imports report it). */
export interface PersistCuts {
  /** Strings cut to MAX_PERSIST_CHARS. */
  strings: number;
  /** UTF-16 code units removed from them in all (the notices not counted). */
  charsRemoved: number;
  /** Length of the longest cut string before the cut. */
  longest: number;
}

function sanitize(value: unknown, cuts: PersistCuts | undefined): unknown {
  if (typeof value === "string") {
    const out = truncateForPersist(value);
    if (cuts && out !== value) {
      cuts.strings += 1;
      cuts.charsRemoved += value.length - (out.length - PERSIST_TRUNCATION_NOTICE.length);
      cuts.longest = Math.max(cuts.longest, value.length);
    }
    return out;
  }
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => sanitize(v, cuts));
  // Non-plain objects (Date, typed arrays…) are not JSON session data; they pass through.
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!DROPPED_KEYS.has(key)) out[key] = sanitize(v, cuts);
  }
  return out;
}

/**
 * A copy of `value` with `partialJson` / `jsonlEvents` keys removed at any depth and every
 * over-long string truncated (session-engine.md §1.9). `cuts`, when given, is incremented for every cut string,
 * so a caller can tell the user what was shortened.
 */
export function sanitizeForPersist<T>(value: T, cuts?: PersistCuts): T {
  return sanitize(value, cuts) as T;
}

/** `<ISO timestamp with ":" and "." replaced by "-">_<sessionId>.jsonl` (session-engine.md §1.9). */
export function exportFileName(timestamp: string, sessionId: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}
