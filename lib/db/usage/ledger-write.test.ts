/**
 * writeLedger, the ledger write of a whole new session (import, fork, backfill): plain inserts
 * that count a key's first row unless a counted row of the key is visible, and the ON CONFLICT
 * write when another transaction counts one of the keys while this one runs (ledger-write.ts).
 * Also the heir of a released key (releaseCounted), read through the index of uncounted rows,
 * and no row without its session (usage_rows has no key of its own: migration 20270128000002).
 */
import { describe, expect, it } from "vitest";
import type { UsageRow } from "@/lib/usage/rows";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import { withBulkTransaction } from "../store/sql";
import { releaseCounted, writeLedger } from "./ledger-write";

useTestDatabase();

const row = (entryId: string, dedupeKey: string, minute: number): UsageRow => ({
  entryId,
  kind: "message",
  at: Date.parse("2025-03-04T10:00:00Z") + minute * 60_000,
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  input: 100,
  output: 10,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  dedupeKey,
});

const countedBy = async () =>
  (
    await getDb().$queryRawUnsafe<{ entry_id: string; dedupe_key: string; counted: boolean }[]>(
      "SELECT entry_id, dedupe_key, counted FROM usage_rows ORDER BY entry_id",
    )
  ).map((r) => `${r.entry_id} ${r.dedupe_key} ${r.counted ? "counted" : "-"}`);

const newSession = "INSERT INTO sessions (id, header) VALUES ($1, '{}')";

describe("writeLedger", () => {
  it("counts each key once when another transaction counts one of them while it writes", async () => {
    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => {
      commitFirst = resolve;
    });
    let firstWrote!: () => void;
    const wrote = new Promise<void>((resolve) => {
      firstWrote = resolve;
    });
    // The first writer holds a counted row of "resp-1", uncommitted, until the second one waits for it.
    const first = withBulkTransaction(async (sql) => {
      await sql.query(newSession, ["ledger-a"]);
      await writeLedger(sql, "ledger-a", [row("a1", "resp-1", 0)]);
      firstWrote();
      await firstMayCommit;
    });
    await wrote;
    const second = withBulkTransaction(async (sql) => {
      await sql.query(newSession, ["ledger-b"]);
      await writeLedger(sql, "ledger-b", [row("b1", "resp-1", 0), row("b2", "resp-2", 1), row("b3", "resp-2", 2)]);
    });
    // The second writer's insert of "resp-1" waits on the first's uncommitted index entry.
    for (let i = 0; i < 200; i++) {
      const [w] = await getDb().$queryRawUnsafe<{ n: bigint }[]>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (Number(w!.n) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    commitFirst();
    await first;
    await second;
    expect(await countedBy()).toEqual(["a1 resp-1 counted", "b1 resp-1 -", "b2 resp-2 counted", "b3 resp-2 -"]);
  });

  it("refuses rows of a session that does not exist (usage_rollup's key), leaving none", async () => {
    await expect(withBulkTransaction((sql) => writeLedger(sql, "ledger-none", [row("n1", "resp-9", 0)]))).rejects.toThrow(/usage_rollup_session_id_fkey/);
    expect((await countedBy()).filter((r) => r.startsWith("n1"))).toEqual([]);
  });

  it("hands a released key to the earliest live copy, which was uncounted", async () => {
    await withBulkTransaction(async (sql) => {
      for (const id of ["ledger-c", "ledger-d", "ledger-e"]) await sql.query(newSession, [id]);
      await writeLedger(sql, "ledger-c", [row("c1", "resp-3", 0)]);
      await writeLedger(sql, "ledger-d", [row("d1", "resp-3", 5)]);
      await writeLedger(sql, "ledger-e", [row("e1", "resp-3", 3)]);
    });
    expect(await countedBy()).toContain("c1 resp-3 counted");
    await withBulkTransaction((sql) => releaseCounted(sql, "ledger-c"));
    const rows = await countedBy();
    expect(rows.filter((r) => r.includes("resp-3"))).toEqual(["c1 resp-3 -", "d1 resp-3 -", "e1 resp-3 counted"]);
  });
});
