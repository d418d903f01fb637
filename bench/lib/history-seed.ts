/**
 * The history benchmark's fast seeded path (bench/history.ts): sessions written straight into
 * the tables by SQL, to bring the database to 10,000 sessions without importing 8,000 more
 * files. Each seeded session has a row, `messages` message entries whose `text` draws words
 * from a fixed vocabulary (one word unique to the session: `seedword<n>`), and the full-text
 * rows the import's build would give them (to_tsvector('simple', text), search_seq =
 * entry_count), so the list and the search see them as they see imported ones.
 * Their `data` is a minimal message: they are listed and searched, never opened.
 */
import { getDb } from "@/lib/db/client";

/** Words of the seeded texts (also the benchmark's search words). */
export const SEED_WORDS = [
  "parser", "refactor", "migration", "timeout", "cache", "widget", "tokenizer", "deadlock",
  "schema", "render", "compile", "fixture", "branch", "rollback", "latency", "snapshot",
] as const;

/** Adds `count` sessions named `seed-<first>` … with `messages` entries each; returns their entry total. */
export async function seedSessions(first: number, count: number, messages: number): Promise<number> {
  if (count <= 0) return 0;
  const db = getDb();
  const words = `ARRAY[${SEED_WORDS.map((w) => `'${w}'`).join(",")}]`;
  // Activity times spread over the last year, so the list's order interleaves them with the rest.
  await db.$executeRawUnsafe(
    `INSERT INTO sessions (id, header, cwd, title, created_at, updated_at, last_activity_at, entry_count, search_seq)
     SELECT 'seed-' || g, jsonb_build_object('type', 'session', 'id', 'seed-' || g), '/home/dev/seeded', 'Seeded session ' || g,
       now() - (g % 365) * interval '1 day', now(), now() - (g % 365) * interval '1 day' - (g % 997) * interval '1 minute', $3::int, $3::int
     FROM generate_series($1::int, $2::int) g`,
    first,
    first + count - 1,
    messages,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO entries (session_id, id, parent_id, type, "timestamp", seq, data, role, text)
     SELECT 'seed-' || g, 'e' || k, CASE WHEN k = 0 THEN NULL ELSE 'e' || (k - 1) END, 'message', '2026-01-01T00:00:00.000Z', k,
       '{"type":"message"}', CASE WHEN k % 2 = 0 THEN 'user' ELSE 'assistant' END,
       (${words})[1 + (g * 7 + k) % 16] || ' ' || (${words})[1 + (g + k * 3) % 16] || ' and some ordinary words ' || k
         || CASE WHEN k = 0 THEN ' seedword' || g ELSE '' END
     FROM generate_series($1::int, $2::int) g, generate_series(0, $3::int - 1) k`,
    first,
    first + count - 1,
    messages,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO entry_search (session_id, seq, search)
     SELECT session_id, seq, to_tsvector('simple', text) FROM entries
     WHERE session_id LIKE 'seed-%' AND session_id IN (SELECT 'seed-' || g FROM generate_series($1::int, $2::int) g)`,
    first,
    first + count - 1,
  );
  await db.$executeRawUnsafe("UPDATE sessions SET leaf_id = 'e' || (entry_count - 1) WHERE id LIKE 'seed-%' AND leaf_id IS NULL");
  // What autovacuum would do within a minute of such a write: the search's plans need the counts.
  await db.$executeRawUnsafe("ANALYZE sessions, entry_search");
  return count * messages;
}

/** Sessions, and message entries of all of them. */
export async function historyCounts(): Promise<{ sessions: number; messages: number }> {
  const [row] = await getDb().$queryRawUnsafe<{ sessions: number; messages: number }[]>(
    "SELECT (SELECT count(*)::int FROM sessions) AS sessions, (SELECT count(*)::int FROM entries WHERE type = 'message') AS messages",
  );
  return row!;
}
