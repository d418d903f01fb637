// Prisma CLI configuration. The app itself never runs the Prisma CLI at run time: migrations are
// applied by lib/postgres/migrate.ts, which keeps `_prisma_migrations` compatible with `prisma migrate deploy`.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    // Only the CLI's migrate/db commands read this; generate does not need a database.
    url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/arbor",
  },
});
