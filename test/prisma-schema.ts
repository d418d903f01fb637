/**
 * A small reader for the subset of Prisma Schema Language Arbor uses, so the schema-parity test
 * can compare `schema.prisma` with a migrated database without Prisma's native engine.
 * It understands models, scalar fields (`?` optional, `[]` lists), `@id`, `@unique`, `@map`,
 * `@default`, `@db.*`, relation fields, `Unsupported("…")`, and `@@id`, `@@unique`, `@@index`
 * (with `sort:` and `type:`), `@@map`. Anything else in a model is an error, so the test cannot
 * silently ignore a construct it does not check.
 * Column collations, which Prisma's language cannot state, are read from a doc comment line
 * `/// Collation "<name>" …` among the comment lines right above the field.
 */

export interface PrismaColumn {
  field: string;
  column: string;
  /** PostgreSQL type as `format_type` prints it, e.g. "text", "timestamp(3) with time zone". */
  pgType: string;
  nullable: boolean;
  isId: boolean;
  isUnique: boolean;
  /** A collation other than the database's default (from a `/// Collation "…"` line). */
  collation?: string;
}

export interface PrismaIndex {
  columns: string[];
  unique: boolean;
  method: string;
  /** A partial index's predicate (from a `/// Partial unique index (col, …) WHERE …` line). */
  where?: string;
}

export interface PrismaTable {
  model: string;
  table: string;
  columns: PrismaColumn[];
  primaryKey: string[];
  indexes: PrismaIndex[];
  foreignKeys: { columns: string[]; references: string; refColumns: string[]; onDelete: string }[];
}

const SCALARS: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Boolean: "boolean",
  Float: "double precision",
  Decimal: "numeric(65,30)",
  DateTime: "timestamp(3) without time zone",
  Json: "jsonb",
  Bytes: "bytea",
};

const NATIVE: Record<string, (arg?: string) => string> = {
  Text: () => "text",
  Date: () => "date",
  Timestamptz: (p) => `timestamp(${p ?? "6"}) with time zone`,
  Timestamp: (p) => `timestamp(${p ?? "6"}) without time zone`,
  VarChar: (n) => (n ? `character varying(${n})` : "character varying"),
  Integer: () => "integer",
  BigInt: () => "bigint",
  JsonB: () => "jsonb",
  Json: () => "json",
  Uuid: () => "uuid",
};

function stripComments(line: string): string {
  const i = line.indexOf("//");
  return (i >= 0 ? line.slice(0, i) : line).trim();
}

function listArg(text: string): string[] {
  const m = /\[([^\]]*)\]/.exec(text);
  if (!m?.[1]) return [];
  return m[1].split(",").map((s) => s.trim().replace(/\(.*\)$/, "")).filter(Boolean);
}

function mapArg(attrs: string): string | undefined {
  return /@map\("([^"]+)"\)/.exec(attrs)?.[1];
}

export function parsePrismaSchema(source: string): PrismaTable[] {
  const models = [...source.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
  const modelNames = new Set(models.map((m) => m[1]!));
  const tables: PrismaTable[] = [];
  for (const [, model, body] of models) {
    const table: PrismaTable = { model: model!, table: model!, columns: [], primaryKey: [], indexes: [], foreignKeys: [] };
    const relations: { fields: string[]; references: string[]; model: string; onDelete: string }[] = [];
    const blockAttrs: string[] = [];
    let collation: string | undefined;
    for (const raw of body!.split("\n")) {
      const doc = /^\s*\/\/\/\s*Collation "([^"]+)"/.exec(raw);
      if (doc) collation = doc[1];
      // Prisma's language cannot state a partial index: a doc line names it.
      const partial = /^\s*\/\/\/\s*Partial (unique )?index \(([^)]+)\) WHERE (.+)$/.exec(raw);
      if (partial) {
        const columns = partial[2]!.split(",").map((c) => c.trim());
        table.indexes.push({ columns, unique: Boolean(partial[1]), method: "btree", where: partial[3]!.trim() });
      }
      const line = stripComments(raw);
      if (!line || line.startsWith("///")) continue;
      const fieldCollation = collation;
      collation = undefined;
      if (fieldCollation && (line.startsWith("@@") || modelNames.has(/^\w+\s+(\w+)/.exec(line)?.[1] ?? ""))) {
        throw new Error(`prisma schema: a Collation line must stand above a scalar field (${model}: ${line})`);
      }
      if (line.startsWith("@@")) {
        blockAttrs.push(line);
        continue;
      }
      const m = /^(\w+)\s+(Unsupported\("[^"]+"\)|\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!m) throw new Error(`prisma schema: cannot read line in model ${model}: ${line}`);
      const [, field, type, list, optional, attrs = ""] = m;
      if (modelNames.has(type!)) {
        const rel = /@relation\(([^)]*(?:\([^)]*\)[^)]*)*)\)/.exec(attrs);
        if (rel?.[1] && /fields:/.test(rel[1])) {
          relations.push({
            fields: listArg(rel[1].slice(rel[1].indexOf("fields:"))),
            references: listArg(rel[1].slice(rel[1].indexOf("references:"))),
            model: type!,
            onDelete: /onDelete:\s*(\w+)/.exec(rel[1])?.[1] ?? "Restrict",
          });
        }
        continue;
      }
      if (list) throw new Error(`prisma schema: scalar lists are not supported (${model}.${field})`);
      let pgType: string;
      const unsupported = /^Unsupported\("([^"]+)"\)$/.exec(type!);
      if (unsupported) pgType = unsupported[1]!;
      else {
        const native = /@db\.(\w+)(?:\(([^)]*)\))?/.exec(attrs);
        if (native) {
          const f = NATIVE[native[1]!];
          if (!f) throw new Error(`prisma schema: unknown native type @db.${native[1]} (${model}.${field})`);
          pgType = f(native[2]);
        } else {
          const s = SCALARS[type!];
          if (!s) throw new Error(`prisma schema: unknown type ${type} (${model}.${field})`);
          pgType = s;
        }
      }
      table.columns.push({
        field: field!,
        column: mapArg(attrs) ?? field!,
        pgType,
        nullable: optional === "?",
        isId: /@id\b/.test(attrs),
        isUnique: /@unique\b/.test(attrs),
        ...(fieldCollation ? { collation: fieldCollation } : {}),
      });
    }
    const col = (f: string) => table.columns.find((c) => c.field === f)?.column ?? f;
    for (const attr of blockAttrs) {
      const kind = /^@@(\w+)/.exec(attr)?.[1];
      if (kind === "map") table.table = /"([^"]+)"/.exec(attr)![1]!;
      else if (kind === "id") table.primaryKey = listArg(attr).map(col);
      else if (kind === "unique") table.indexes.push({ columns: listArg(attr).map(col), unique: true, method: "btree" });
      else if (kind === "index") {
        const method = (/type:\s*(\w+)/.exec(attr)?.[1] ?? "btree").toLowerCase();
        table.indexes.push({ columns: listArg(attr).map(col), unique: false, method });
      } else throw new Error(`prisma schema: unsupported block attribute in ${model}: ${attr}`);
    }
    for (const c of table.columns) {
      if (c.isId) table.primaryKey = [c.column];
      if (c.isUnique) table.indexes.push({ columns: [c.column], unique: true, method: "btree" });
    }
    table.foreignKeys = relations.map((r) => ({
      columns: r.fields.map(col),
      references: r.model,
      refColumns: r.references,
      onDelete: r.onDelete,
    }));
    tables.push(table);
  }
  // Resolve referenced model names to table names and referenced fields to columns.
  for (const t of tables) {
    for (const fk of t.foreignKeys) {
      const ref = tables.find((x) => x.model === fk.references);
      if (!ref) continue;
      fk.references = ref.table;
      fk.refColumns = fk.refColumns.map((f) => ref.columns.find((c) => c.field === f)?.column ?? f);
    }
  }
  return tables;
}
