-- Entry ids compare bytewise (COLLATE "C") instead of through the database's collation (issue #12,
-- import speed). Ids are opaque: only compared for equality, never sorted for anyone to see, so
-- the order a collation defines is of no use to them; but every B-tree comparison of the entries'
-- keys (the primary key (session_id, id), the (session_id, parent_id) index, the FK lookups of a
-- path) paid strcoll under a non-C database collation ("C.UTF-8", "en_US.UTF-8", …), on every row
-- an import or a commit inserts and on every step of a path read. With "C" they are memcmp.
-- Measured on 100k imported rows: ~5 % of the server's COPY time with "C.UTF-8" (glibc's cheapest
-- non-C collation); more under a language collation.
-- Equality results do not change (both collations are deterministic); comparisons with columns of
-- the default collation (sessions.leaf_id, model_calls.entry_id, …) use "C" (an explicit column
-- collation wins over the default one). Prisma's schema language cannot state a column's
-- collation, so schema.prisma says it in a `/// Collation "C"` line that
-- lib/db/schema-parity.test.ts checks against the database.
-- The type stays text (no table rewrite); the three indexes are rebuilt.

-- AlterTable
ALTER TABLE "entries" ALTER COLUMN "session_id" SET DATA TYPE TEXT COLLATE "C",
  ALTER COLUMN "id" SET DATA TYPE TEXT COLLATE "C",
  ALTER COLUMN "parent_id" SET DATA TYPE TEXT COLLATE "C";
