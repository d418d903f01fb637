/** The migrator: Prisma-compatible bookkeeping, idempotence, locking and refusal of edited migrations. */
import { cp, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultMigrationsDir, migrate, readMigrations } from "./migrate";
import { createEmptyDatabase, dropTestDatabase, type TestDatabase } from "@/test/db";

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

describe("migrate", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createEmptyDatabase("arbor_migrate");
  });
  afterAll(async () => {
    if (db) await dropTestDatabase(db.name);
  });

  it("applies every migration once and records Prisma-compatible rows", async () => {
    const files = await readMigrations();
    expect(files.length).toBeGreaterThan(0);
    const first = await migrate(db.url);
    expect(first.applied).toEqual(files.map((f) => f.name));
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      db.url,
      `select migration_name, checksum, finished_at, applied_steps_count from _prisma_migrations order by migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, r] of rows.entries()) {
      expect(r.checksum).toBe(files[i]!.checksum);
      expect(r.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.applied_steps_count).toBe(1);
    }
    const second = await migrate(db.url);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(files.map((f) => f.name));
  });

  it("names each pending migration of an upgrade before running it, and none while a new database is set up", async () => {
    const files = await readMigrations();
    const fresh = await createEmptyDatabase("arbor_migrate_upgrade");
    const dir = await mkdtemp(path.join(tmpdir(), "arbor-migrations-"));
    try {
      // The older release: every migration but the last two.
      for (const f of files.slice(0, -2)) await cp(path.join(defaultMigrationsDir(), f.name), path.join(dir, f.name), { recursive: true });
      const told: string[] = [];
      await migrate(fresh.url, dir, { onUpgrade: (name) => told.push(name) });
      expect(told).toEqual([]);
      const upgrade: [string, number][] = [];
      const result = await migrate(fresh.url, undefined, { onUpgrade: (name, pending) => upgrade.push([name, pending]) });
      expect(result.applied).toEqual(files.slice(-2).map((f) => f.name));
      expect(upgrade).toEqual(files.slice(-2).map((f) => [f.name, 2]));
    } finally {
      await dropTestDatabase(fresh.name);
    }
  });

  it("applies concurrently started runs exactly once (advisory lock)", async () => {
    const fresh = await createEmptyDatabase("arbor_migrate_race");
    try {
      const results = await Promise.all([migrate(fresh.url), migrate(fresh.url), migrate(fresh.url)]);
      const appliedCounts = results.map((r) => r.applied.length);
      expect(appliedCounts.filter((n) => n > 0)).toHaveLength(1);
      const rows = await query<{ n: string }>(fresh.url, "select count(*) as n from _prisma_migrations");
      expect(Number(rows[0]!.n)).toBe((await readMigrations()).length);
    } finally {
      await dropTestDatabase(fresh.name);
    }
  });

  it("refuses an applied migration whose file was changed", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "arbor-migrations-"));
    await cp(path.join(process.cwd(), "prisma/migrations"), dir, { recursive: true });
    const [first] = await readMigrations(dir);
    await writeFile(path.join(dir, first!.name, "migration.sql"), `${first!.sql}\n-- edited\n`);
    await expect(migrate(db.url, dir)).rejects.toThrow(/was changed after it was applied/);
  });

  it("rolls back a failing migration and records nothing for it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "arbor-migrations-"));
    await cp(path.join(process.cwd(), "prisma/migrations"), dir, { recursive: true });
    const name = "29991231000000_broken";
    const { mkdir } = await import("node:fs/promises");
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, "migration.sql"), `CREATE TABLE "half" (id int);\nSELECT * FROM no_such_table;\n`);
    await expect(migrate(db.url, dir)).rejects.toThrow(/Migration 29991231000000_broken failed: .*no_such_table/);
    const half = await query<{ n: string }>(db.url, `select count(*) as n from pg_class where relname = 'half'`);
    expect(Number(half[0]!.n)).toBe(0);
    const rows = await query<{ n: string }>(db.url, `select count(*) as n from _prisma_migrations where migration_name = '${name}'`);
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
