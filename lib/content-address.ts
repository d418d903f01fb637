/**
 * Canonical JSON and content hashes for recorded model calls.
 * Pure: no network, disk or database access (node:crypto only hashes).
 *
 * Contract:
 * - `canonicalJson(v)` is a deterministic function of the JSON value of `v`: object keys sorted,
 *   `undefined` members dropped (array holes become null, as in JSON.stringify), and every string
 *   made storable in PostgreSQL `text`/`jsonb` (U+0000 and lone surrogates → U+FFFD, the same
 *   replacement lib/db/pg-json.ts makes). So a value read back from JSONB canonicalizes to the
 *   same text, and hashes to the same key, as the value that was written.
 * - `contentHash(v)` = sha256 (hex) of canonicalJson(v): the primary key of model_call_contents.
 * - `matchKey(message)` identifies a message across the store's sanitizing (session-engine.md §1.9: long
 *   strings truncated, streaming-only keys dropped), so a message as SENT matches the entry it
 *   came from as STORED. Used only to map sent messages to entries, never as a storage key.
 */
import { createHash } from "node:crypto";
import { sanitizeForPersist } from "@/lib/session/file/sanitize";

/** U+0000 and lone surrogates: the characters PostgreSQL `text` cannot hold. */
const BAD_CHARS = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function storableText(value: string): string {
  return value.replace(BAD_CHARS, "\ufffd");
}

function normalize(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean" || value === null) return value;
  if (typeof value !== "object") return undefined; // undefined, functions, symbols: not JSON
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === "function") return normalize(withJson.toJSON());
  if (Array.isArray(value)) {
    return value.map((item) => {
      const n = normalize(item);
      return n === undefined ? null : n;
    });
  }
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    const n = normalize(record[key]);
    if (n !== undefined) out[storableText(key)] = n;
  }
  return out;
}

/** The canonical JSON text of `value` ("null" for a value with no JSON form). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalize(value) ?? null);
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** sha256 of the canonical JSON: the content address of a message, system prompt or tool list. */
export function contentHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

const hashes = new WeakMap<object, string>();

/**
 * contentHash memoized per object. Only for objects nobody mutates: the read model's entries and
 * their messages (lib/db/read-model), which stay the same objects from call to call.
 */
export function contentHashOf(value: object): string {
  let hash = hashes.get(value);
  if (hash === undefined) {
    hash = contentHash(value);
    hashes.set(value, hash);
  }
  return hash;
}

/** The canonical text, its hash and its UTF-8 size, computed once. */
export function addressContent(value: unknown): { hash: string; json: string; bytes: number } {
  const json = canonicalJson(value);
  return { hash: sha256Hex(json), json, bytes: Buffer.byteLength(json, "utf8") };
}

/** Identity of a message across persistence sanitizing (see the header). */
export function matchKey(message: unknown): string {
  return contentHash(sanitizeForPersist(message));
}
