/**
 * The embedded server is private (README "Security"). Two clusters in temp folders, not the shared
 * test server:
 * - a new one: the secret file is 0600, there is no TCP listener, the former fixed password is
 *   refused, and the app role cannot run programs, read server files, create roles or
 *   databases, or connect to the maintenance databases;
 * - one created the old way (superuser arbor / arbor, TCP, tables owned by the superuser): the
 *   first start rotates the password, writes the secret, hands the tables to the app role and
 *   keeps the data.
 */
import { readFileSync, statSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, rm } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_ROLE } from "./app-role";
import { prepareAppDatabase } from "./bootstrap";
import { type EmbeddedServer, startEmbeddedPostgres } from "./embedded";
import { buildUrl, socketDirFor } from "./embedded-endpoint";
import { secretPath } from "./embedded-secret";
import { serverAccount } from "./embedded-account";
import { placeServer } from "./embedded-place";
import { initCluster, spawnServer } from "./embedded-process";

let root = "";
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "arbor-pg-"));
  // Run as root, the embedded server drops to a "postgres" user, which must be able to enter.
  await chmod(root, 0o755);
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}
/** The SQLSTATE `sql` fails with as the given URL's user, or "ok". */
async function failure(url: string, sql: string): Promise<string> {
  return query(url, sql).then(
    () => "ok",
    (e: { code?: string }) => e.code ?? "no code",
  );
}

describe("socket path", () => {
  it("uses the cluster folder when the socket path fits in 107 bytes, else falls back to TCP", () => {
    expect(socketDirFor("/work/x/.data/postgres", 5432)).toBe("/work/x/.data/postgres");
    expect(socketDirFor(`/${"a".repeat(100)}`, 5432)).toBeUndefined();
    expect(socketDirFor("/tmp/with,comma", 5432)).toBeUndefined();
  });
});

describe("a new embedded cluster", () => {
  let server: EmbeddedServer;
  let app = "";
  beforeAll(async () => {
    server = await startEmbeddedPostgres(path.join(root, "fresh"));
    app = (await prepareAppDatabase(server, "arbor")).url;
  }, 120_000);
  afterAll(() => server?.stop(), 30_000);

  it("keeps its passwords in a 0600 file and listens on a Unix socket only", () => {
    const file = secretPath(server.dir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secret = JSON.parse(readFileSync(file, "utf8")) as { superuserPassword: string; appPassword: string };
    expect(server.adminUrl).toContain(encodeURIComponent(secret.superuserPassword));
    expect(server.endpoint.socketDir).toBe(server.dir);
    const lock = readFileSync(path.join(server.dir, "postmaster.pid"), "utf8").split("\n");
    expect(lock[4]).toBe(server.dir); // socket folder
    expect(lock[5]?.trim()).toBe(""); // listen_addresses: no TCP
    expect(statSync(server.dir).mode & 0o077).toBe(0);
  });

  it("refuses the former fixed password", async () => {
    expect(await failure(buildUrl(server.endpoint, "arbor", "arbor", "postgres"), "select 1")).toBe("28P01");
  });

  it("gives the app a role without superuser powers or server-side roles", async () => {
    const [role] = await query<Record<string, boolean>>(
      server.adminUrl,
      `select rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls from pg_roles where rolname = '${APP_ROLE}'`,
    );
    expect(role).toEqual({ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolreplication: false, rolbypassrls: false });
    const memberOf = await query(server.adminUrl, `select 1 from pg_auth_members m join pg_roles r on r.oid = m.member where r.rolname = '${APP_ROLE}'`);
    expect(memberOf).toEqual([]);
  });

  it("does not let the app role run programs, read server files, create roles or databases", async () => {
    expect(await failure(app, "copy (select 1) to program 'id'")).toBe("42501");
    expect(await failure(app, "create temp table t (x text); copy t from program 'id'")).toBe("42501");
    expect(await failure(app, "select pg_read_file('/etc/passwd')")).toBe("42501");
    expect(await failure(app, "copy (select 1) to '/tmp/arbor-copy-test'")).toBe("42501");
    expect(await failure(app, "create role intruder superuser")).toBe("42501");
    expect(await failure(app, "create database intruder")).toBe("42501");
    expect(await failure(app, "alter role arbor password 'x'")).toBe("42501");
  });

  it("does not let the app role into another database", async () => {
    expect(await failure(server.appUrlFor("postgres"), "select 1")).toBe("42501");
    expect(await failure(server.appUrlFor("template1"), "select 1")).toBe("42501");
    // A database the app was not given: at most PUBLIC's connect, and none of its data.
    await query(server.adminUrl, "create database other");
    await query(server.urlFor("other"), "create table private_data (x int); insert into private_data values (1)");
    expect(await failure(server.appUrlFor("other"), "select * from private_data")).toBe("42501");
  });

  it("lets the app role use its own database and create tables there (as later migrations do)", async () => {
    expect(await failure(app, "create table later_migration (id int primary key); insert into later_migration values (1)")).toBe("ok");
    expect(await query(app, "select count(*)::int as n from sessions")).toEqual([{ n: 0 }]);
  });
});

describe("a cluster made with the former arbor / arbor credentials", () => {
  const dir = () => path.join(root, "legacy");
  let server: EmbeddedServer | undefined;
  afterAll(() => server?.stop(), 30_000);

  it("is upgraded on start: new password in a 0600 file, tables handed to the app role, data kept", async () => {
    // Made the way Arbor made clusters before the secret file (superuser arbor / arbor, TCP),
    // with the same programs and account the embedded server uses (placed as for any cluster).
    const account = serverAccount();
    const place = await placeServer(dir(), account);
    await mkdir(place.cluster, { recursive: true, mode: 0o700 });
    if (account) await chown(place.cluster, account.uid, account.gid);
    await initCluster({ programs: place.programs, cluster: place.cluster, account, superuser: "arbor", password: "arbor" });
    const old = await spawnServer({
      programs: place.programs,
      cluster: place.cluster,
      account,
      port: 54_391,
      flags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      onLog: () => {},
    });
    const oldUrl = "postgresql://arbor:arbor@127.0.0.1:54391";
    await query(`${oldUrl}/postgres`, "create database arbor");
    await query(`${oldUrl}/arbor`, "create table notes (id serial primary key, body text); insert into notes (body) values ('kept')");
    const stopped = once(old, "exit");
    old.kill("SIGINT");
    await stopped;

    server = await startEmbeddedPostgres(dir());
    expect(statSync(secretPath(dir())).mode & 0o777).toBe(0o600);
    expect(await failure(buildUrl(server.endpoint, "arbor", "arbor", "postgres"), "select 1")).toBe("28P01");
    const db = await prepareAppDatabase(server, "arbor");
    expect(await query(db.url, "select body from notes")).toEqual([{ body: "kept" }]);
    expect(await failure(db.url, "insert into notes (body) values ('the app may write')")).toBe("ok");
    const owners = await query<{ owner: string }>(db.url, "select distinct pg_get_userbyid(relowner) as owner from pg_class where relnamespace = 'public'::regnamespace");
    expect(owners).toEqual([{ owner: APP_ROLE }]);
  }, 120_000);
});
