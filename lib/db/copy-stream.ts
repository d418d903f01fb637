import "server-only";
/**
 * `COPY … FROM STDIN` streams (pg-copy-streams) that survive their connection dying mid-way.
 *
 * Why: pg-copy-streams 7.0.0 waits for the socket's 'drain' with a listener on the socket
 * itself. When the server ends the connection (a restart, pg_terminate_backend) while such a
 * wait is pending, the query's error handler drops its connection, and the late 'drain' then
 * flushes through the missing connection: a TypeError thrown from a socket event, which ends
 * the whole process (the Next server), not only the import.
 *
 * Contract: `copyFromStdin(text)` is pg-copy-streams' `from(text)` whose flushes do nothing once
 * the query has no connection (after its error; the stream has already failed with the
 * database's error, which is what its user reports). Everything else is unchanged.
 */
import { from } from "pg-copy-streams";

type CopyQuery = ReturnType<typeof from> & { connection?: unknown; flush(callback?: () => void): void };

export function copyFromStdin(text: string): ReturnType<typeof from> {
  const query = from(text) as CopyQuery;
  // Replaced before any flush is bound to a 'drain' listener (the library binds `this.flush`).
  const flush = query.flush;
  query.flush = function guardedFlush(this: CopyQuery, callback?: () => void) {
    if (!this.connection) return;
    flush.call(this, callback);
  };
  return query;
}
