/** Bulk writes keep their connection for the next one, and never hand on a broken one (bulk-connections.ts). */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { withBulkTransaction } from "./sql";

const db = useTestDatabase();

const backend = () => withBulkTransaction(async (sql) => (await sql.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))[0]!.pid);

async function asAdmin(text: string, params: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: db.adminUrl });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

describe("bulk connections", () => {
  it("the next bulk write runs on the connection of the last one that committed", async () => {
    const first = await backend();
    expect(await backend()).toBe(first);
  });

  it("a connection whose transaction failed is closed, and what it wrote is gone", async () => {
    const failed = await withBulkTransaction(async (sql) => {
      await sql.query("CREATE TEMP TABLE scratch (n int)");
      const [row] = await sql.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      throw Object.assign(new Error("the import failed"), { pid: row!.pid });
    }).catch((error: Error & { pid: number }) => error.pid);
    const next = await withBulkTransaction(async (sql) => {
      const [me] = await sql.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const [scratch] = await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'scratch'");
      return { pid: me!.pid, n: scratch!.n };
    });
    expect(next.pid).not.toBe(failed);
    expect(next.n).toBe(0);
  });

  it("a kept connection the server ended meanwhile is replaced: the write still succeeds", async () => {
    const kept = await backend();
    await asAdmin("SELECT pg_terminate_backend($1)", [kept]);
    const next = await backend();
    expect(next).not.toBe(kept);
    expect(await backend()).toBe(next);
  });
});
