import "server-only";
/**
 * The one Prisma client (conventions rule 4): Prisma 7 `prisma-client` generator on
 * `@prisma/adapter-pg`, kept on globalThis so Next's dev reloads reuse it.
 * The connection string comes from `databaseUrl()`, which lib/postgres/bootstrap.ts sets up
 * (DATABASE_URL, or the embedded server).
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/lib/env";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { arborDb?: PrismaClient; arborDbUrl?: string };

export function createDb(connectionString: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: 10 }) });
}

/** The connection string in use: set by bootstrap, else DATABASE_URL. */
export function databaseUrl(): string {
  const url = globalForDb.arborDbUrl ?? env.DATABASE_URL;
  if (!url) {
    throw new Error("No database configured: start Arbor with `npm run dev` / `npm start` (embedded database) or set DATABASE_URL.");
  }
  return url;
}

export function getDb(): PrismaClient {
  globalForDb.arborDb ??= createDb(databaseUrl());
  return globalForDb.arborDb;
}

/** Points the singleton at another database (tests use one database per file). */
export async function useDatabase(url: string): Promise<PrismaClient> {
  const old = globalForDb.arborDb;
  globalForDb.arborDbUrl = url;
  globalForDb.arborDb = createDb(url);
  await old?.$disconnect();
  return globalForDb.arborDb;
}

export async function disconnectDb(): Promise<void> {
  await globalForDb.arborDb?.$disconnect();
  globalForDb.arborDb = undefined;
}
