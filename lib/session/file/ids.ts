/**
 * Entry and session id generation (session-engine.md §1.6).
 * Pure: uses only the global `crypto.randomUUID()`; no network, disk or database access.
 *
 * Entry ids are 8 lowercase hex characters (the tail of a v4 UUID). They are unique within a
 * session, not globally: the caller passes the ids already taken.
 */

/** How many 8-hex draws are tried before falling back to a longer id (session-engine.md §1.6). */
export const MAX_SHORT_ID_ATTEMPTS = 100;

/** Anything that can answer "is this id already used?" (a Set, a Map, a tree index…). */
export interface TakenIds {
  has(id: string): boolean;
}

/**
 * A fresh entry id not in `taken`: the last 8 characters of a UUID, redrawn on collision up to
 * 100 times; after that a full UUID (36 characters), which cannot be confused with a short id.
 * `uuid` is injectable so tests can force collisions.
 */
export function generateEntryId(taken: TakenIds, uuid: () => string = () => crypto.randomUUID()): string {
  for (let attempt = 0; attempt < MAX_SHORT_ID_ATTEMPTS; attempt++) {
    const id = uuid().slice(-8);
    if (!taken.has(id)) return id;
  }
  // oh-my-pi falls back to a Snowflake id; any longer unique id satisfies session-engine.md §1.6.
  // The counter suffix guarantees termination even if the UUID source keeps repeating.
  const base = uuid();
  let id = base;
  for (let n = 1; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/** A new session id: a v4 UUID (session-engine.md §1.6). Imported sessions keep whatever id they carry. */
export function generateSessionId(): string {
  return crypto.randomUUID();
}

/** The id fields of an entry, and how an error names them. */
const ID_FIELDS = [
  ["id", "the entry id"],
  ["parentId", "the parent id"],
  ["targetId", "the target id"],
  ["firstKeptEntryId", "the first kept entry id"],
  ["fromId", "the from id"],
] as const;

/**
 * The first id field of `entry` holding a NUL character, with its name for an error, or
 * undefined. Such an id cannot be stored (PostgreSQL text holds no NUL), and replacing the NUL,
 * as texts get (docs/engine.md), would make it another id that the entries referring to it would
 * no longer find: importers refuse the line instead.
 */
export function idWithNul(entry: Record<string, unknown>): { field: string; name: string } | undefined {
  for (const [field, name] of ID_FIELDS) {
    const v = entry[field];
    if (typeof v === "string" && v.includes("\0")) return { field, name };
  }
  return undefined;
}
