/** `npm run db:migrate`: apply pending migrations to DATABASE_URL or the embedded database. */
import { prepareDatabase } from "@/lib/postgres";

const db = await prepareDatabase();
console.log(db.migrations.applied.length ? `applied: ${db.migrations.applied.join(", ")}` : "database is up to date");
await db.embedded?.stop();
