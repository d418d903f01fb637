/**
 * Integration tests get an isolated database: `useTestDatabase()` (call it at the top of a test
 * file) clones the migrated template into a fresh database before the file's tests, points the
 * lib/db singleton at it, and drops it afterwards. Real PostgreSQL, never a mock.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { disconnectDb, useDatabase } from "@/lib/db/client";
import { closeRunChannel } from "@/lib/db/run-channel";

export interface TestDatabase {
  /** Connection string of this file's database. */
  url: string;
  name: string;
}

export function databaseUrlFor(database: string): string {
  const u = new URL(inject("adminDatabaseUrl"));
  u.pathname = `/${database}`;
  return u.toString();
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

/** Creates an empty (unmigrated) database and returns its URL; dropped by dropTestDatabase. */
export async function createEmptyDatabase(prefix = "arbor_empty"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  await admin((c) => c.query(`create database ${name}`));
  return { name, url: databaseUrlFor(name) };
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
}

export function useTestDatabase(): TestDatabase {
  const db: TestDatabase = { name: `arbor_test_${randomBytes(5).toString("hex")}`, url: "" };
  beforeAll(async () => {
    await admin((c) => c.query(`create database ${db.name} template ${inject("templateDatabase")}`));
    db.url = databaseUrlFor(db.name);
    await useDatabase(db.url);
  });
  afterAll(async () => {
    await disconnectDb();
    await closeRunChannel();
    await dropTestDatabase(db.name);
  });
  return db;
}
