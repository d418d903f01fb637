/**
 * The session list's pages come in index order: the statement listSessions sends for a page (by
 * activity, the next page by its cursor, by cost) and the trash's are captured as sent and
 * EXPLAINed with their parameters on 3,000 sessions: none sorts the sessions, and none reads more
 * than a few dozen index and heap pages. Before migration 20270130000000 the list read every
 * live session and sorted them (a seq scan and a top-N sort), so its first page grew with the
 * history (docs/benchmarks.md, H5).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { countStatements, type SentStatement } from "@/test/statements";
import { getDb } from "../client";
import { listTrash } from "../store/session-trash";
import { listSessions } from "./session-list";

useTestDatabase();

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

function nodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(nodes)];
}

/** The plan of the one statement of `sent` that reads the sessions table in order. */
async function planOf(sent: SentStatement[]): Promise<PlanNode> {
  const list = sent.filter((s) => /FROM "public"\."sessions"/.test(s.text) && /ORDER BY/.test(s.text));
  expect(list, sent.map((s) => s.text.slice(0, 120)).join("\n")).toHaveLength(1);
  const rows = await getDb().$queryRawUnsafe<{ "QUERY PLAN": { Plan: PlanNode }[] }[]>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${list[0]!.text}`,
    ...list[0]!.values,
  );
  return rows[0]!["QUERY PLAN"][0]!.Plan;
}

function expectIndexOrder(plan: PlanNode, index: string) {
  const all = nodes(plan);
  expect(all.map((n) => n["Node Type"])).not.toContain("Sort");
  expect(all.map((n) => n["Node Type"])).not.toContain("Seq Scan");
  expect(all.some((n) => n["Index Name"] === index)).toBe(true);
  const pages = all.reduce((sum, n) => Math.max(sum, (n["Shared Hit Blocks"] ?? 0) + (n["Shared Read Blocks"] ?? 0)), 0);
  expect(pages).toBeLessThan(100);
}

describe("the session list's order", () => {
  beforeAll(async () => {
    // 3,000 sessions (one in ten deleted), activity and cost spread out, then ANALYZE as autovacuum would.
    await getDb().$executeRawUnsafe(
      `INSERT INTO sessions (id, header, cwd, title, created_at, updated_at, last_activity_at, entry_count, search_seq, cost_micros, deleted_at)
       SELECT 'order-' || g, jsonb_build_object('type', 'session', 'id', 'order-' || g), '/p/' || (g % 7), 'Session ' || g,
         now(), now(), now() - (g * 7919 % 3000) * interval '1 minute', 0, 0, (g * 104729) % 100000,
         CASE WHEN g % 10 = 0 THEN now() - (g % 30) * interval '1 hour' END
       FROM generate_series(1, 3000) g`,
    );
    await getDb().$executeRawUnsafe("ANALYZE sessions");
  });

  it("reads the first page, and the next one by its cursor, from the live sessions' activity index", async () => {
    const first = await countStatements(() => listSessions({ limit: 50 }));
    expectIndexOrder(await planOf(first.sent), "sessions_live_activity_idx");
    const next = first.result.nextCursor;
    expect(next).not.toBeNull();
    const again = await countStatements(() => listSessions({ limit: 50, cursor: next! }));
    expectIndexOrder(await planOf(again.sent), "sessions_live_activity_idx");
  });

  it("reads the list by cost from the live sessions' cost index", async () => {
    const byCost = await countStatements(() => listSessions({ limit: 50, sort: "cost" }));
    expectIndexOrder(await planOf(byCost.sent), "sessions_live_cost_idx");
  });

  it("reads the trash from its own index, newest deletion first", async () => {
    const { result: trash, sent } = await countStatements(() => listTrash(50));
    expectIndexOrder(await planOf(sent), "sessions_trash_idx");
    expect(trash).toHaveLength(50);
    const times = trash.map((t) => Date.parse(t.deletedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});
