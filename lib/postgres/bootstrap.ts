import "server-only";
/**
 * Start-up for every entry point (dev, start, tests, CLI): resolve the database and apply pending
 * migrations.
 * - DATABASE_URL: used exactly as given (the operator's server, database and role); migrations
 *   run as that role. No roles are created and no ownership is changed.
 * - Otherwise the embedded server (lib/postgres/embedded.ts) with database `arbor`, given to the app
 *   role and migrated as it (lib/postgres/app-role.ts); the app then connects as that role, never as
 *   the superuser.
 */
import { APP_ROLE, giveDatabaseToApp } from "./app-role";
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedOptions, type EmbeddedServer } from "./embedded";
import { type MigrateOptions, migrate, type MigrateResult } from "./migrate";
import { env } from "@/lib/env";

export interface PreparedDatabase {
  /** What the app connects with. */
  url: string;
  embedded?: EmbeddedServer;
  migrations: MigrateResult;
}

export interface AppDatabase {
  /** The app role's connection string. */
  url: string;
  /** The superuser's connection to the same database (maintenance only). */
  adminUrl: string;
  migrations: MigrateResult;
}

/** Creates `database` on the embedded server if needed, gives it to the app role and migrates it as that role. */
export async function prepareAppDatabase(
  server: EmbeddedServer,
  database: string,
  migrationsDir?: string,
  onUpgrade?: MigrateOptions["onUpgrade"],
): Promise<AppDatabase> {
  await ensureDatabase(server.adminUrl, database);
  const adminUrl = server.urlFor(database);
  await giveDatabaseToApp(adminUrl, database);
  const migrations = await migrate(adminUrl, migrationsDir, { role: APP_ROLE, ...(onUpgrade ? { onUpgrade } : {}) });
  return { url: server.appUrlFor(database), adminUrl, migrations };
}

export async function prepareDatabase(
  opts: { database?: string; embeddedDir?: string; embedded?: EmbeddedOptions; onUpgrade?: MigrateOptions["onUpgrade"] } = {},
): Promise<PreparedDatabase> {
  if (env.DATABASE_URL) {
    return { url: env.DATABASE_URL, migrations: await migrate(env.DATABASE_URL, undefined, opts.onUpgrade ? { onUpgrade: opts.onUpgrade } : {}) };
  }
  const embedded = await startEmbeddedPostgres(opts.embeddedDir, opts.embedded);
  const db = await prepareAppDatabase(embedded, opts.database ?? "arbor", undefined, opts.onUpgrade);
  return { url: db.url, embedded, migrations: db.migrations };
}
