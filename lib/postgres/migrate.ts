import "server-only";
/**
 * Applies `prisma/migrations/<name>/migration.sql` in name order, the way `prisma migrate deploy`
 * does, without Prisma's native engine (which cannot be downloaded here).
 *
 * Contract:
 * - Runs under a PostgreSQL advisory lock, so concurrent start-ups (dev server, tests, CLI)
 *   apply each migration once.
 * - Each migration runs in its own transaction together with its `_prisma_migrations` row.
 * - Rows are Prisma-compatible: same table layout, checksum = sha256 (hex) of the file's bytes,
 *   `applied_steps_count = 1`, `finished_at` set, so `prisma migrate deploy` sees them as applied.
 * - An applied migration whose file changed since is refused with a clear error, as Prisma does.
 *   So is a recorded migration that failed (finished_at null, not rolled back).
 * - With `role`, everything runs under `SET ROLE role` (the embedded server's app role: see
 *   lib/postgres/app-role.ts), so the tables a migration creates, `_prisma_migrations` included, are
 *   owned by that role.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/** Arbitrary constant key for pg_advisory_lock; Prisma uses its own (72707369). */
const LOCK_KEY = 72_707_369;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export function defaultMigrationsDir(): string {
  return path.join(process.cwd(), "prisma", "migrations");
}

export async function readMigrations(dir = defaultMigrationsDir()): Promise<MigrationFile[]> {
  if (!existsSync(dir)) throw new MigrationError(`Migrations folder not found: ${dir}`);
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const files: MigrationFile[] = [];
  for (const name of names) {
    const file = path.join(dir, name, "migration.sql");
    if (!existsSync(file)) continue;
    const bytes = await readFile(file);
    files.push({ name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") });
  }
  return files;
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export interface MigrateOptions {
  /** Run as this role (`SET ROLE`): it then owns what the migrations create. */
  role?: string;
  /**
   * Called before each pending migration of a database that already had some applied (an
   * upgrade, whose migrations may rewrite tables full of sessions and take a while): the
   * migration's name, and how many are pending. Not called while a new database is set up.
   */
  onUpgrade?: (name: string, pending: number) => void;
}

/** What the app and the CLI say as an upgrade's migration starts (MigrateOptions `onUpgrade`). */
export function upgradeMessage(name: string, pending: number): string {
  return `arbor: upgrading the database (${pending} ${pending === 1 ? "migration" : "migrations"}): ${name}…`;
}

/** Applies every pending migration to the database at `url`. */
export async function migrate(url: string, dir = defaultMigrationsDir(), opts: MigrateOptions = {}): Promise<MigrateResult> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const result: MigrateResult = { applied: [], alreadyApplied: [] };
  try {
    if (opts.role) await client.query(`set role ${pg.escapeIdentifier(opts.role)}`);
    await client.query("select pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(CREATE_TABLE);
    const rows = (
      await client.query<AppliedRow>(
        `select migration_name, checksum, finished_at, rolled_back_at from "_prisma_migrations" where rolled_back_at is null`,
      )
    ).rows;
    const applied = new Map(rows.map((r) => [r.migration_name, r]));
    const pending = applied.size > 0 ? migrations.filter((m) => !applied.has(m.name)).length : 0;
    for (const m of migrations) {
      const row = applied.get(m.name);
      if (row) {
        if (!row.finished_at) {
          throw new MigrationError(
            `Migration ${m.name} was started but never finished (a failed run is recorded in _prisma_migrations). Resolve it before starting Arbor.`,
          );
        }
        if (row.checksum !== m.checksum) {
          throw new MigrationError(
            `Migration ${m.name} was changed after it was applied (checksum ${row.checksum.slice(0, 12)}… recorded, ${m.checksum.slice(0, 12)}… on disk). ` +
              "Applied migrations must never be edited: restore the file and add a new migration instead.",
          );
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      if (pending > 0) opts.onUpgrade?.(m.name, pending);
      await applyOne(client, m);
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await client.query("select pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

async function applyOne(client: pg.Client, m: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query("begin");
  try {
    await client.query(
      `insert into "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) values ($1, $2, $3, now(), 0)`,
      [id, m.checksum, m.name],
    );
    await client.query(m.sql);
    await client.query(`update "_prisma_migrations" set finished_at = now(), applied_steps_count = 1 where id = $1`, [id]);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw new MigrationError(`Migration ${m.name} failed: ${(error as Error).message}`);
  }
}
