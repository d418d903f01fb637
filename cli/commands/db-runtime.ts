/**
 * The database side of the `import` and `export` commands: open the database the way the app
 * does (DATABASE_URL, or the embedded server with migrations applied: lib/postgres/bootstrap.ts), and
 * close it afterwards, stopping the embedded server only if this process started it.
 *
 * lib/db is loaded lazily (dynamic import) so the file-only commands keep starting without the
 * database layer, and without the `react-server` condition `server-only` needs.
 * Ctrl-C while a command runs aborts `signal`: an import then rolls back and writes nothing.
 */

export interface DbHandle {
  /** Aborted on SIGINT / SIGTERM while the handle is open. */
  signal: AbortSignal;
  close(): Promise<void>;
}

export interface DbRuntime {
  open(): Promise<DbHandle>;
}

export const processDbRuntime: DbRuntime = {
  async open() {
    const { prepareDatabase, upgradeMessage } = await import("@/lib/postgres");
    const { useDatabase, disconnectDb } = await import("@/lib/db");
    const db = await prepareDatabase({
      onUpgrade: (name, pending) => process.stderr.write(`${upgradeMessage(name, pending)}\n`),
    });
    await useDatabase(db.url);
    const controller = new AbortController();
    const onSignal = () => controller.abort(new Error("interrupted"));
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    return {
      signal: controller.signal,
      async close() {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        // The run registry's connection (a sync's file locks) would keep the process alive.
        const { closeRunChannel } = await import("@/lib/runs");
        await closeRunChannel();
        await disconnectDb();
        if (db.embedded?.owned) await db.embedded.stop();
      },
    };
  },
};

/** For tests: the database is already set up (useTestDatabase); nothing to open or close. */
export function inProcessDbRuntime(signal: AbortSignal = new AbortController().signal): DbRuntime {
  return { open: async () => ({ signal, close: async () => {} }) };
}

/** Runs `fn` with the database open, always closing it. */
export async function withDatabase<T>(runtime: DbRuntime, fn: (db: DbHandle) => Promise<T>): Promise<T> {
  const handle = await runtime.open();
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}
