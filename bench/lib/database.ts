/**
 * The benchmarks' own database: `arbor_bench_<timestamp>`, created, migrated and pointed at by
 * the lib/db singleton, dropped at the end.
 *
 * Server: the one of DATABASE_URL when set; otherwise an embedded server on its own data folder
 * `.data/postgres-bench` (never a developer's `.data/postgres`), started here with
 * `pg_stat_statements` preloaded so statements can be counted for a page load served by another
 * process (the `next start` of the canvas benchmark). A server already running on that folder is
 * reused; statement counting then works only if it was started with the library. On the embedded
 * server the app (and `url`) connects as the app role (lib/postgres/app-role.ts); the extension and
 * statistics go through the superuser's `statsUrl`.
 *
 * In-process statements are counted by wrapping `pg.Client.prototype.query`, which both Prisma's
 * pg adapter (through its Pool) and the bulk-import connection go through.
 */
import path from "node:path";
import pg from "pg";

export interface BenchDatabase {
  name: string;
  url: string;
  adminUrl: string;
  /** Connection to the bench database allowed to install and reset pg_stat_statements. */
  statsUrl: string;
  /** `pg_stat_statements` is loaded and installed in the bench database. */
  statementStats: boolean;
  close(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The embedded server on the bench's own folder, with pg_stat_statements preloaded when this starts it. */
async function embeddedServer(dir: string) {
  const { startEmbeddedPostgres } = await import("@/lib/postgres");
  const server = await startEmbeddedPostgres(dir, { extraFlags: ["-c", "shared_preload_libraries=pg_stat_statements"] });
  return { adminUrl: server.adminUrl, embedded: server, ...(server.owned ? { stop: server.stop } : {}) };
}

/** Runs `fn` on a connection of its own to `adminUrl`, closed after. */
export async function admin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Databases of bench runs that were killed before they could drop theirs (own server only). */
async function dropLeftovers(adminUrl: string): Promise<void> {
  await admin(adminUrl, async (c) => {
    const old = await c.query<{ datname: string }>("select datname from pg_database where datname like 'arbor\\_bench\\_%'");
    // Without FORCE: a database still in use (another bench run) is left alone.
    for (const r of old.rows) await c.query(`drop database if exists ${pg.escapeIdentifier(r.datname)}`).catch(() => undefined);
  });
}

export async function openBenchDatabase(): Promise<BenchDatabase> {
  const { env } = await import("@/lib/env");
  const { migrate, prepareAppDatabase } = await import("@/lib/postgres");
  const { useDatabase, disconnectDb } = await import("@/lib/db");
  const server = env.DATABASE_URL
    ? { adminUrl: withDatabase(env.DATABASE_URL, "postgres"), stop: undefined, embedded: undefined }
    : await embeddedServer(path.join(process.cwd(), ".data", "postgres-bench"));
  if (server.stop) await dropLeftovers(server.adminUrl);
  const name = `arbor_bench_${Date.now()}`;
  let url: string;
  let statsUrl: string;
  if (server.embedded) {
    ({ url, adminUrl: statsUrl } = await prepareAppDatabase(server.embedded, name));
  } else {
    await admin(server.adminUrl, (c) => c.query(`create database ${pg.escapeIdentifier(name)}`));
    url = statsUrl = withDatabase(server.adminUrl, name);
    await migrate(url);
  }
  const statementStats = await admin(statsUrl, async (c) => {
    try {
      await c.query("create extension if not exists pg_stat_statements");
      await c.query("select pg_stat_statements_reset()");
      return true;
    } catch {
      return false;
    }
  });
  await useDatabase(url);
  return {
    name,
    url,
    adminUrl: server.adminUrl,
    statsUrl,
    statementStats,
    async close() {
      await disconnectDb();
      await admin(server.adminUrl, (c) => c.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`));
      await server.stop?.();
    },
  };
}

/** Statements the bench database has run (any process) since the last reset, from pg_stat_statements. */
export async function serverStatements(db: BenchDatabase): Promise<{ total: number; byQuery: { query: string; calls: number }[] }> {
  return admin(db.statsUrl, async (c) => {
    const r = await c.query<{ query: string; calls: string }>(
      `select s.query, s.calls::text from pg_stat_statements s join pg_database d on d.oid = s.dbid
       where d.datname = current_database() and s.query not ilike '%pg_stat_statements%'
       order by s.calls desc`,
    );
    const byQuery = r.rows.map((x) => ({ query: x.query.replace(/\s+/g, " ").slice(0, 160), calls: Number(x.calls) }));
    return { total: byQuery.reduce((a, x) => a + x.calls, 0), byQuery };
  });
}

export async function resetServerStatements(db: BenchDatabase): Promise<void> {
  await admin(db.statsUrl, (c) => c.query("select pg_stat_statements_reset()"));
}

/** Counts every statement sent by this process (`pg.Client#query`), grouped by first keyword. */
export const statementCounter = {
  total: 0,
  kinds: new Map<string, number>(),
  installed: false,
  install(): void {
    if (this.installed) return;
    this.installed = true;
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const first = args[0];
      const text = typeof first === "string" ? first : ((first as { text?: string } | undefined)?.text ?? "");
      const kind = (text.trim().match(/^\w+/)?.[0] ?? "?").toUpperCase();
      statementCounter.total++;
      statementCounter.kinds.set(kind, (statementCounter.kinds.get(kind) ?? 0) + 1);
      return original.apply(this, args);
    };
  },
  reset(): void {
    this.total = 0;
    this.kinds.clear();
  },
  describe(): string {
    return [...this.kinds].map(([k, n]) => `${n} ${k}`).join(", ");
  },
};
