import "server-only";
/**
 * Recorded calls' message lists and contents, cached in process (bounded LRUs by bytes), so a
 * view that was read before costs no statement for them.
 *
 * Why a cache cannot go stale: a call's stored list never changes once recorded (rows are only
 * inserted, lib/db/model-calls/lists.ts), and a content is addressed by its hash (lib/db/model-calls/contents.ts);
 * a removed call or content is simply never asked for again (the call rows come fresh from the
 * database with every read, calls.ts). Every process has its own cache; none needs invalidation.
 *
 * Misses of one view (lists not cached, contents evicted, `extra` ones) are read together in
 * ONE statement (readCallBodies).
 */
import { ByteLru } from "@/lib/byte-lru";
import { type CallBodies, type CallRow, cacheBudgetBytes, readCallBodies } from "@/lib/db";

/** Default budget: a quarter of the read model's (ARBOR_CACHE_MB, default 256 MB). */
const budget = () => Math.max(1, cacheBudgetBytes() / 4);
const HASH_BYTES = 80;

const lists = new ByteLru<{ hashes: string[]; bytes: number }>(budget() / 8);
const contents = new ByteLru<{ value: unknown; bytes: number }>(budget());

/** Empties both caches (tests: as a restart would). */
export function clearBodiesCache(): void {
  lists.clear();
  contents.clear();
}

/** The lists of `calls` and the contents they and `extra` name; reads only what is not cached. */
export async function callBodies(calls: readonly (CallRow | null)[], extra: readonly (string | null)[] = []): Promise<CallBodies> {
  const wanted = calls.filter((c): c is CallRow => c !== null);
  const out: CallBodies = { lists: new Map(), contents: new Map() };
  const missingCalls: CallRow[] = [];
  const hashes = new Set<string>();
  for (const h of extra) if (h !== null) hashes.add(h);
  for (const call of wanted) {
    const cached = lists.get(call.id);
    if (!cached) missingCalls.push(call);
    else {
      out.lists.set(call.id, cached.hashes);
      for (const h of cached.hashes) hashes.add(h);
    }
  }
  const missingHashes: string[] = [];
  for (const h of hashes) {
    const hit = contents.get(h);
    if (hit) out.contents.set(h, hit.value);
    else missingHashes.push(h);
  }
  if (missingCalls.length === 0 && missingHashes.length === 0) return out;
  const read = await readCallBodies({ calls: missingCalls, extra: missingHashes });
  for (const [id, list] of read.lists) {
    out.lists.set(id, list);
    lists.set(id, { hashes: list, bytes: list.length * HASH_BYTES });
  }
  for (const [h, value] of read.contents) {
    out.contents.set(h, value);
    contents.set(h, { value, bytes: read.sizes?.get(h) ?? HASH_BYTES });
  }
  return out;
}
