import "server-only";
/**
 * Linear storage of the message lists of recorded calls.
 *
 * Successive chat calls of a session mostly extend the previous call's list (a tool step adds
 * the assistant message and its results; a new prompt adds the answer and the prompt). So a call
 * stores its list as: `base_call_id` (an earlier call), `base_keep` (how many leading messages
 * of the base's list it reuses) and, in `model_call_messages`, ONLY the appended hashes at their
 * absolute positions base_keep … message_count−1.
 *
 * When a call is stored in full instead (base null, every position stored):
 * - there is no earlier chat call, or the call is a summarization call (one message);
 * - the reused prefix is short: less than half of the list (after a compaction, a navigation,
 *   an early prune), so a full copy costs at most twice the delta it replaces;
 * - the base is already MAX_CHAIN_DEPTH links from a full list, which bounds reconstruction.
 * Cost per call = appended messages + (list length / MAX_CHAIN_DEPTH) amortized; the list length
 * is bounded by the context window (compaction resets it), so total rows grow linearly with the
 * session's length (figures in lib/db/model-calls/model-calls.storage.test.ts).
 *
 * Reconstruction (`readHashList`) is ONE recursive query: walking from the call down its chain,
 * each link only contributes the positions below every later link's `base_keep`, so every
 * position is read exactly once — no superseded rows are fetched.
 */
import { Prisma } from "@/generated/prisma/client";
import type { Tx } from "../store/sql";
import { toPgJson } from "../pg-json";

/** Longest chain of deltas before a call is stored in full again. */
export const MAX_CHAIN_DEPTH = 128;

type Reader = Pick<Tx, "$queryRaw">;

export interface ListBase {
  id: string;
  chainDepth: number;
  hashes: readonly string[];
}

export interface ListPlan {
  baseCallId: string | null;
  baseKeep: number;
  chainDepth: number;
  /** Hashes this call stores, at positions baseKeep, baseKeep + 1, … */
  appended: string[];
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** How to store `hashes`, given the candidate base (the session's previous chat call). */
export function planMessageList(base: ListBase | null, hashes: readonly string[]): ListPlan {
  const full: ListPlan = { baseCallId: null, baseKeep: 0, chainDepth: 0, appended: [...hashes] };
  if (!base || base.chainDepth + 1 > MAX_CHAIN_DEPTH) return full;
  const keep = commonPrefix(base.hashes, hashes);
  if (keep === 0 || keep * 2 < hashes.length) return full;
  return { baseCallId: base.id, baseKeep: keep, chainDepth: base.chainDepth + 1, appended: hashes.slice(keep) };
}

/** Writes the plan's rows for `callId` (one statement). */
export async function writeListRows(tx: Tx, callId: string, plan: ListPlan): Promise<void> {
  if (plan.appended.length === 0) return;
  const rows = plan.appended.map((hash, i) => ({ p: plan.baseKeep + i, h: hash }));
  await tx.$executeRaw`
    INSERT INTO model_call_messages (call_id, position, hash)
    SELECT ${callId}, x.p, x.h FROM jsonb_to_recordset(${toPgJson(rows)}::jsonb) AS x(p int, h text)`;
}

/**
 * The recursive `chain` CTE of the stored lists of `callIds`: each call (`root`), then each base
 * it reuses, with `lim` = how many positions of that link's own rows are part of the root's list
 * (readHashList and readListsWithContents both walk it).
 */
function callChain(callIds: readonly string[]): Prisma.Sql {
  return Prisma.sql`chain AS (
      SELECT id AS root, id, base_call_id, base_keep, message_count AS lim, 0 AS depth
      FROM model_calls WHERE id = ANY(${[...callIds]}::text[])
      UNION ALL
      SELECT c.root, b.id, b.base_call_id, b.base_keep, LEAST(c.lim, c.base_keep), c.depth + 1
      FROM chain c JOIN model_calls b ON b.id = c.base_call_id
      WHERE c.base_keep > 0 AND c.depth < 100000
    )`;
}

/**
 * The call's whole list of message hashes, in order. `messageCount` is the call's own column;
 * a stored chain that does not cover it exactly is an error (it never is, unless edited by hand).
 */
export async function readHashList(db: Reader, call: { id: string; messageCount: number }): Promise<string[]> {
  if (call.messageCount === 0) return [];
  const rows = await db.$queryRaw<{ position: number; hash: string }[]>`
    WITH RECURSIVE ${callChain([call.id])}
    SELECT m.position, m.hash
    FROM chain c JOIN model_call_messages m
      ON m.call_id = c.id AND m.position >= c.base_keep AND m.position < c.lim
    ORDER BY m.position`;
  if (rows.length !== call.messageCount || rows.some((r, i) => r.position !== i)) {
    throw new Error(`Model call ${call.id}: stored message list is incomplete (${rows.length} of ${call.messageCount} messages)`);
  }
  return rows.map((r) => r.hash);
}

/**
 * The lists of several calls (call id → hashes in order) and the contents of all their hashes
 * plus `extra` ones, in ONE query (the inspector's read of a call and the one it is diffed
 * against). Each list comes as one json array, each content as its JSON text (parsed here:
 * cheaper than row-by-row jsonb values; `sizes` gives each text's length). Missing contents are simply absent from the map; a list
 * that does not cover its call's messageCount exactly is an error.
 */
export async function readListsWithContents(
  db: Reader,
  calls: readonly { id: string; messageCount: number }[],
  extra: readonly string[],
): Promise<{ lists: Map<string, string[]>; contents: Map<string, unknown>; sizes: Map<string, number> }> {
  const lists = new Map<string, string[]>(calls.map((c) => [c.id, []]));
  const contents = new Map<string, unknown>();
  const sizes = new Map<string, number>();
  if (calls.length === 0 && extra.length === 0) return { lists, contents, sizes };
  const rows = await db.$queryRaw<{ root: string | null; hash: string | null; json: string; n: number; last: number | null }[]>`
    WITH RECURSIVE ${callChain([...lists.keys()])}, list AS (
      SELECT c.root, m.position, m.hash
      FROM chain c JOIN model_call_messages m
        ON m.call_id = c.id AND m.position >= c.base_keep AND m.position < c.lim
    ), wanted AS (
      SELECT hash FROM list UNION SELECT unnest(${[...extra]}::text[])
    )
    SELECT root, NULL AS hash, json_agg(hash ORDER BY position)::text AS json,
      count(DISTINCT position)::int AS n, max(position) AS last
    FROM list GROUP BY root
    UNION ALL
    SELECT NULL, mc.hash, mc.data::text, 0, NULL FROM wanted w JOIN model_call_contents mc ON mc.hash = w.hash`;
  const counts = new Map<string, { n: number; last: number | null }>();
  for (const r of rows) {
    if (r.root === null) {
      contents.set(r.hash!, JSON.parse(r.json));
      sizes.set(r.hash!, r.json.length);
    } else {
      lists.set(r.root, JSON.parse(r.json) as string[]);
      counts.set(r.root, { n: r.n, last: r.last });
    }
  }
  for (const call of calls) {
    const got = counts.get(call.id) ?? { n: 0, last: null };
    const list = lists.get(call.id)!;
    if (got.n !== call.messageCount || list.length !== call.messageCount || (got.n > 0 && got.last !== got.n - 1)) {
      throw new Error(`Model call ${call.id}: stored message list is incomplete (${got.n} of ${call.messageCount} messages)`);
    }
  }
  return { lists, contents, sizes };
}
