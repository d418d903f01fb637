/**
 * Vitest global setup: one PostgreSQL for the whole run (DATABASE_URL's server when set, else the
 * embedded server in .data/postgres-test, separate from the dev data), with a freshly migrated
 * template database. Each integration test file clones the template (test/db.ts).
 * On the embedded server the template is owned and migrated the way the app's database is
 * (lib/postgres/app-role.ts), and tests connect as the app role, so a missing privilege fails a test.
 */
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { APP_ROLE, giveDatabaseToApp, migrate, startEmbeddedPostgres } from "@/lib/postgres";
import { writePageScript } from "@/scripts/build-page-script";

export const TEMPLATE_DB = `arbor_template_${process.pid}`;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  // The HTML export inlines its page script from generated/: bundle it from its current source.
  writePageScript();
  let adminUrl: string;
  let appUrl: string;
  let appRole = "";
  let stop: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
    appUrl = adminUrl;
  } else {
    const server = await startEmbeddedPostgres(path.join(process.cwd(), ".data", "postgres-test"));
    adminUrl = server.adminUrl;
    appUrl = server.appUrlFor("postgres");
    appRole = APP_ROLE;
    stop = server.owned ? server.stop : undefined;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB}`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  await admin.end();
  const templateUrl = withDatabase(adminUrl, TEMPLATE_DB);
  if (appRole) await giveDatabaseToApp(templateUrl, TEMPLATE_DB);
  await migrate(templateUrl, undefined, appRole ? { role: appRole } : {});

  project.provide("adminDatabaseUrl", adminUrl);
  project.provide("appDatabaseUrl", appUrl);
  project.provide("appRole", appRole);
  project.provide("templateDatabase", TEMPLATE_DB);

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${TEMPLATE_DB} with (force)`).catch(() => undefined);
    // Another test run (its own template) still uses the shared embedded server: leave it running.
    const others = await client
      .query<{ n: string }>(`select count(*) as n from pg_database where datname like 'arbor_template_%'`)
      .then((r) => Number(r.rows[0]?.n ?? 0))
      .catch(() => 0);
    await client.end();
    if (others === 0) await stop?.();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser (or DATABASE_URL's) connection string of the maintenance database. */
    adminDatabaseUrl: string;
    /** The app's connection string on that server (database path to be replaced). */
    appDatabaseUrl: string;
    /** The embedded server's app role; "" with DATABASE_URL (used as is, no roles). */
    appRole: string;
    templateDatabase: string;
  }
}
