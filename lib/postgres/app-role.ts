import "server-only";
/**
 * The embedded server's app role `arbor_app`: what the app (Next, the CLI, tests' store) connects
 * as, so a bug in the app cannot become a shell (`COPY … PROGRAM`) or reach beyond Arbor's data.
 *
 * Contract:
 * - The role is LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS and a member
 *   of no role (so not of pg_execute_server_program / pg_read_server_files /
 *   pg_write_server_files). Its attributes and password are set again on every start.
 * - PUBLIC may not connect to `postgres` and `template1`; an Arbor database admits the app role
 *   (and the superuser) only.
 * - In an Arbor database the role owns the `public` schema and everything in it. Migrations run
 *   on a superuser connection under `SET ROLE arbor_app` (lib/postgres/migrate.ts), so any plain
 *   `CREATE TABLE` of a future migration is owned by the role and needs no grant. Objects an
 *   older Arbor created as the superuser are handed over on start (`giveDatabaseToApp`).
 * - Only for the embedded server. With DATABASE_URL the operator's database and role are used as
 *   given: no roles are created and no ownership is changed.
 */
import pg from "pg";

export const APP_ROLE = "arbor_app";

const ATTRIBUTES = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS";

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates or resets the app role (superuser connection `adminUrl`), and closes the maintenance databases. */
export async function ensureAppRole(adminUrl: string, password: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    const role = pg.escapeIdentifier(APP_ROLE);
    const secret = c.escapeLiteral(password);
    const exists = (await c.query("select 1 from pg_roles where rolname = $1", [APP_ROLE])).rowCount === 1;
    if (!exists) {
      await c.query(`create role ${role} with ${ATTRIBUTES} password ${secret}`).catch((error: { code?: string }) => {
        // 42710: created concurrently by another process; reset below.
        if (error.code !== "42710") throw error;
      });
    }
    await c.query(`alter role ${role} with ${ATTRIBUTES} password ${secret}`);
    await c.query("revoke connect, temporary on database postgres, template1 from public");
  });
}

/**
 * Gives the database at `superuserDbUrl` (named `database`) to the app role: only it may connect,
 * it owns `public` and every object in it (objects made by older versions as the superuser).
 */
export async function giveDatabaseToApp(superuserDbUrl: string, database: string): Promise<void> {
  await withClient(superuserDbUrl, async (c) => {
    const db = pg.escapeIdentifier(database);
    const role = pg.escapeIdentifier(APP_ROLE);
    await c.query(`revoke all on database ${db} from public`);
    await c.query(`grant connect, temporary on database ${db} to ${role}`);
    await c.query(`alter schema public owner to ${role}`);
    // Tables first: their identity / serial sequences follow them (and cannot be given alone).
    await c.query(`do $$
      declare r record;
      begin
        for r in select c.oid::regclass as name, c.relkind from pg_class c
                 where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
                   and c.relowner <> '${APP_ROLE}'::regrole loop
          execute format('alter %s %s owner to ${APP_ROLE}',
            case r.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table' else 'table' end, r.name);
        end loop;
        for r in select c.oid::regclass as name from pg_class c
                 where c.relnamespace = 'public'::regnamespace and c.relkind = 'S' and c.relowner <> '${APP_ROLE}'::regrole loop
          execute format('alter sequence %s owner to ${APP_ROLE}', r.name);
        end loop;
        for r in select t.oid::regtype as name from pg_type t
                 where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd', 'r', 'm') and t.typowner <> '${APP_ROLE}'::regrole loop
          execute format('alter type %s owner to ${APP_ROLE}', r.name);
        end loop;
        for r in select p.oid::regprocedure as name from pg_proc p
                 where p.pronamespace = 'public'::regnamespace and p.proowner <> '${APP_ROLE}'::regrole loop
          execute format('alter routine %s owner to ${APP_ROLE}', r.name);
        end loop;
      end $$`);
  });
}
