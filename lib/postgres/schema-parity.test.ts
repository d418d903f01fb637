/**
 * Proves the hand-written migration SQL matches prisma/schema.prisma on a migrated database:
 * every model's table, column, type, nullability, collation, primary key, unique constraint,
 * index and foreign key. A migration that drifts from the schema fails here. Collations: Prisma
 * cannot state them, so schema.prisma names a column's in a `/// Collation "…"` doc line; every
 * column without one must have the database's default collation.
 * The database is migrated the way the app's embedded one is (superuser connection under
 * `SET ROLE` the app role, lib/postgres/app-role.ts), so every table must also be owned by that role.
 *
 * Why a small parser of schema.prisma (test/prisma-schema.ts) and not Prisma's own tooling: offline,
 * none of it can read the schema's shape. `@prisma/internals` (getDMMF) is not installed;
 * `prisma migrate diff` needs the schema-engine binary, which it downloads on first use; and
 * the generated client's runtime data model has no nullability, native types or indexes.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrate } from "./migrate";
import { parsePrismaSchema, type PrismaTable } from "@/test/prisma-schema";
import { createEmptyDatabase, dropTestDatabase, type TestDatabase } from "@/test/db";

const schema = parsePrismaSchema(readFileSync(path.join(process.cwd(), "prisma/schema.prisma"), "utf8"));

interface DbColumn {
  table_name: string;
  column_name: string;
  type: string;
  not_null: boolean;
  /** null for the database's default collation and for types without one. */
  collation: string | null;
}
interface DbIndex {
  table_name: string;
  columns: string[];
  unique: boolean;
  primary: boolean;
  method: string;
  /** A partial index's predicate (pg_get_expr), else null. */
  predicate: string | null;
}
interface DbFk {
  table_name: string;
  columns: string[];
  ref_table: string;
  ref_columns: string[];
  on_delete: string;
}

const ON_DELETE: Record<string, string> = { a: "NoAction", r: "Restrict", c: "Cascade", n: "SetNull", d: "SetDefault" };

async function readDatabase(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = (
      await client.query<DbColumn>(`
        select c.relname as table_name, a.attname as column_name,
               format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
               case when a.attcollation in (0, t.typcollation) then null else co.collname end as collation
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        join pg_type t on t.oid = a.atttypid left join pg_collation co on co.oid = a.attcollation
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition and a.attnum > 0 and not a.attisdropped
          and c.relname <> '_prisma_migrations'`)
    ).rows;
    const indexes = (
      await client.query<DbIndex>(`
        select t.relname as table_name, i.indisunique as unique, i.indisprimary as primary, am.amname as method,
               pg_get_expr(i.indpred, i.indrelid) as predicate,
               array(select a.attname from unnest(i.indkey) with ordinality k(attnum, ord)
                     join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.ord)::text[] as columns
        from pg_index i join pg_class t on t.oid = i.indrelid join pg_class ic on ic.oid = i.indexrelid
        join pg_am am on am.oid = ic.relam join pg_namespace n on n.oid = t.relnamespace
        where n.nspname = 'public' and t.relname <> '_prisma_migrations' and not t.relispartition`)
    ).rows;
    const fks = (
      await client.query<DbFk>(`
        select t.relname as table_name, r.relname as ref_table, con.confdeltype as on_delete,
               array(select a.attname from unnest(con.conkey) with ordinality k(attnum, ord)
                     join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.ord)::text[] as columns,
               array(select a.attname from unnest(con.confkey) with ordinality k(attnum, ord)
                     join pg_attribute a on a.attrelid = r.oid and a.attnum = k.attnum order by k.ord)::text[] as ref_columns
        from pg_constraint con join pg_class t on t.oid = con.conrelid join pg_class r on r.oid = con.confrelid
        join pg_namespace n on n.oid = t.relnamespace
        where con.contype = 'f' and n.nspname = 'public'`)
    ).rows;
    return { columns, indexes, fks };
  } finally {
    await client.end();
  }
}

/** Normalised descriptions, so a failure prints exactly what differs. */
function describeSchema(tables: PrismaTable[]) {
  return {
    tables: tables.map((t) => t.table).sort(),
    columns: tables.flatMap((t) => t.columns.map((c) => `${t.table}.${c.column} ${c.pgType}${c.nullable ? "" : " not null"}`)).sort(),
    collations: tables.flatMap((t) => t.columns.filter((c) => c.collation).map((c) => `${t.table}.${c.column} collate ${c.collation}`)).sort(),
    primaryKeys: tables.map((t) => `${t.table}(${t.primaryKey.join(",")})`).sort(),
    indexes: tables
      .flatMap((t) => t.indexes.map((i) => `${t.table} ${i.unique ? "unique " : ""}${i.method}(${i.columns.join(",")})${i.where ? ` where ${i.where}` : ""}`))
      .sort(),
    foreignKeys: tables
      .flatMap((t) => t.foreignKeys.map((f) => `${t.table}(${f.columns.join(",")}) -> ${f.references}(${f.refColumns.join(",")}) on delete ${f.onDelete}`))
      .sort(),
  };
}

function describeDatabase(db: Awaited<ReturnType<typeof readDatabase>>) {
  return {
    tables: [...new Set(db.columns.map((c) => c.table_name))].sort(),
    columns: db.columns.map((c) => `${c.table_name}.${c.column_name} ${c.type}${c.not_null ? " not null" : ""}`).sort(),
    collations: db.columns.filter((c) => c.collation !== null).map((c) => `${c.table_name}.${c.column_name} collate ${c.collation}`).sort(),
    primaryKeys: db.indexes.filter((i) => i.primary).map((i) => `${i.table_name}(${i.columns.join(",")})`).sort(),
    indexes: db.indexes
      .filter((i) => !i.primary)
      .map((i) => `${i.table_name} ${i.unique ? "unique " : ""}${i.method}(${i.columns.join(",")})${i.predicate ? ` where ${i.predicate}` : ""}`)
      .sort(),
    foreignKeys: db.fks
      .map((f) => `${f.table_name}(${f.columns.join(",")}) -> ${f.ref_table}(${f.ref_columns.join(",")}) on delete ${ON_DELETE[f.on_delete] ?? f.on_delete}`)
      .sort(),
  };
}

describe("migrated database matches prisma/schema.prisma", () => {
  let db: TestDatabase;
  let actual: ReturnType<typeof describeDatabase>;
  const expected = describeSchema(schema);

  beforeAll(async () => {
    db = await createEmptyDatabase("arbor_parity");
    const role = inject("appRole");
    await migrate(db.adminUrl, undefined, role ? { role } : {});
    actual = describeDatabase(await readDatabase(db.url));
  });
  afterAll(async () => {
    if (db) await dropTestDatabase(db.name);
  });

  it("reads at least the Session and Entry models from the schema", () => {
    expect(schema.map((t) => t.model)).toEqual(expect.arrayContaining(["Session", "Entry"]));
  });
  it("has exactly the schema's tables", () => expect(actual.tables).toEqual(expected.tables));
  it("has every column with its type and nullability, and no others", () => expect(actual.columns).toEqual(expected.columns));
  it("gives exactly the columns schema.prisma names a collation for that collation, every other the default", () => {
    expect(expected.collations).toEqual(expect.arrayContaining(["entries.id collate C", "entries.parent_id collate C", "entries.session_id collate C"]));
    expect(actual.collations).toEqual(expected.collations);
  });
  it("has the schema's primary keys", () => expect(actual.primaryKeys).toEqual(expected.primaryKeys));
  it("has the schema's unique constraints and indexes", () => expect(actual.indexes).toEqual(expected.indexes));
  it("has the schema's foreign keys", () => expect(actual.foreignKeys).toEqual(expected.foreignKeys));
  it.skipIf(!inject("appRole"))("has every table, _prisma_migrations included, owned by the app role", async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const owners = await client
      .query<{ owner: string }>("select distinct pg_get_userbyid(relowner) as owner from pg_class where relnamespace = 'public'::regnamespace")
      .finally(() => client.end());
    expect(owners.rows.map((r) => r.owner)).toEqual([inject("appRole")]);
  });
});
