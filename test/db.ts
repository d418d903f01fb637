/**
 * Integration tests get an isolated database: `useTestDatabase()` (call it at the top of a test
 * file) clones the migrated template into a fresh database before the file's tests, points the
 * lib/db singleton at it, and drops it afterwards. Real PostgreSQL, never a mock.
 * `url` connects as the app would (on the embedded server: the app role, lib/postgres/app-role.ts);
 * `adminUrl` as the superuser, for set-up that the app itself may not do.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { giveDatabaseToApp } from "@/lib/postgres";
import { disconnectDb, useDatabase } from "@/lib/db/client";
import { closeRunChannel } from "@/lib/runs/channel";

export interface TestDatabase {
  /** The app's connection string of this file's database. */
  url: string;
  /** The superuser's connection string of the same database. */
  adminUrl: string;
  name: string;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The app's connection string of `database`. */
export function databaseUrlFor(database: string): string {
  return withDatabase(inject("appDatabaseUrl"), database);
}

export function adminUrlFor(database: string): string {
  return withDatabase(inject("adminDatabaseUrl"), database);
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject("adminDatabaseUrl") });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty (unmigrated) database, owned for the app as the app's own database is, and
 * returns its URLs; dropped by dropTestDatabase.
 */
export async function createEmptyDatabase(prefix = "arbor_empty"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  await admin((c) => c.query(`create database ${name}`));
  if (inject("appRole")) await giveDatabaseToApp(adminUrlFor(name), name);
  return { name, url: databaseUrlFor(name), adminUrl: adminUrlFor(name) };
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
}

export function useTestDatabase(): TestDatabase {
  const db: TestDatabase = { name: `arbor_test_${randomBytes(5).toString("hex")}`, url: "", adminUrl: "" };
  beforeAll(async () => {
    await admin((c) => c.query(`create database ${db.name} template ${inject("templateDatabase")}`));
    db.url = databaseUrlFor(db.name);
    db.adminUrl = adminUrlFor(db.name);
    await useDatabase(db.url);
  });
  afterAll(async () => {
    await disconnectDb();
    await closeRunChannel();
    await dropTestDatabase(db.name);
  });
  return db;
}
