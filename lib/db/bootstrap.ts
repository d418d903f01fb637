import "server-only";
/**
 * Start-up for every entry point (dev, start, tests, CLI): resolve the database (DATABASE_URL,
 * or the embedded server with database `arbor`) and apply pending migrations.
 */
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedServer } from "./embedded";
import { migrate, type MigrateResult } from "./migrate";
import { env } from "@/lib/env";

export interface PreparedDatabase {
  url: string;
  embedded?: EmbeddedServer;
  migrations: MigrateResult;
}

export async function prepareDatabase(opts: { database?: string; embeddedDir?: string } = {}): Promise<PreparedDatabase> {
  if (env.DATABASE_URL) {
    return { url: env.DATABASE_URL, migrations: await migrate(env.DATABASE_URL) };
  }
  const embedded = await startEmbeddedPostgres(opts.embeddedDir);
  const name = opts.database ?? "arbor";
  await ensureDatabase(embedded.adminUrl, name);
  const url = embedded.urlFor(name);
  return { url, embedded, migrations: await migrate(url) };
}
