import "server-only";
/**
 * Errors of the session store, import and export. Every message is written for the person who
 * sees it (the UI shows them as they are); the fields let callers react without parsing text.
 *
 * - ConflictError (defined with the store port, lib/agent/ports.ts, re-exported here): a write
 *   stated the leaf it expected and the session's leaf had moved. Nothing was written.
 * - NotFoundError: the session, or an entry named by the write, does not exist.
 * - IdCollisionError: a new entry reused an id the session already has (or references); the
 *   caller draws new ids and retries. Nothing was written.
 * - ImportError (and LimitError): an import failed and left nothing behind. `file` names the
 *   file, `line` and `field` say where when known.
 * - DatabaseUnavailableError: the database server could not be reached, or dropped the
 *   connection (stopped, restarting, out of connections). `toDatabaseError` turns the driver's
 *   many forms of that (Prisma's adapter kinds and codes, pg's socket errors, PostgreSQL's
 *   shutdown codes) into this one error; routes answer it with 503 (lib/http/route-helpers.ts). The pools
 *   reconnect by themselves once the server is back, so retrying is the remedy.
 */

export { CONFLICT_MESSAGE, ConflictError } from "@/lib/agent/ports";
import type { ImportErrorCode } from "@/lib/types/import-events";

export class StoreError extends Error {
  override name = "StoreError";
}

export class NotFoundError extends StoreError {
  override name = "NotFoundError";
  readonly sessionId: string;
  readonly entryId?: string;
  constructor(input: { sessionId: string; entryId?: string; message?: string }) {
    super(input.message ?? (input.entryId ? `Entry ${input.entryId} not found` : `Session ${input.sessionId} not found`));
    this.sessionId = input.sessionId;
    if (input.entryId !== undefined) this.entryId = input.entryId;
  }
}

export class SessionExistsError extends StoreError {
  override name = "SessionExistsError";
  readonly sessionId: string;
  constructor(input: { sessionId: string }) {
    super(`Session ${input.sessionId} already exists`);
    this.sessionId = input.sessionId;
  }
}

export class IdCollisionError extends StoreError {
  override name = "IdCollisionError";
  readonly sessionId: string;
  readonly ids: string[];
  constructor(input: { sessionId: string; ids: string[] }) {
    super(`Entry id ${input.ids.join(", ")} is already used in session ${input.sessionId}; draw new ids and retry`);
    this.sessionId = input.sessionId;
    this.ids = input.ids;
  }
}

export type { ImportErrorCode } from "@/lib/types/import-events";

export class ImportError extends StoreError {
  override name = "ImportError";
  readonly code: ImportErrorCode;
  readonly file: string;
  readonly line?: number;
  readonly field?: string;
  /** For code "exists": the session already stored under the file's session id. */
  readonly existingSessionId?: string;
  constructor(input: {
    code: ImportErrorCode;
    file: string;
    message: string;
    line?: number;
    field?: string;
    existingSessionId?: string;
    cause?: unknown;
  }) {
    super(input.message, input.cause === undefined ? undefined : { cause: input.cause });
    this.code = input.code;
    this.file = input.file;
    if (input.line !== undefined) this.line = input.line;
    if (input.field !== undefined) this.field = input.field;
    if (input.existingSessionId !== undefined) this.existingSessionId = input.existingSessionId;
  }
}

export type LimitCode = "too_large" | "line_too_long" | "too_many_blank_lines" | "too_many_skipped_lines" | "too_slow";

/** An import limit was exceeded: file size, line length, blank or skipped lines, time budget. */
export class LimitError extends ImportError {
  override name = "LimitError";
  /** The limit: bytes (too_large, line_too_long), lines (too_many_*), milliseconds (too_slow). */
  readonly limit: number;
  constructor(input: { code: LimitCode; file: string; message: string; limit: number; line?: number }) {
    super(input);
    this.limit = input.limit;
  }
}

interface AdapterCause {
  originalCode?: string;
  constraint?: { index?: string };
}

/**
 * The PostgreSQL error code and constraint behind a Prisma error, if any. Prisma 7 with
 * @prisma/adapter-pg reports them under `meta.driverAdapterError.cause`.
 */
export function pgErrorOf(error: unknown): { code?: string; constraint?: string } {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause;
  const direct = error as { code?: unknown; constraint?: unknown } | null;
  const code = cause?.originalCode ?? (typeof direct?.code === "string" && /^[0-9A-Z]{5}$/.test(direct.code) ? direct.code : undefined);
  const constraint = cause?.constraint?.index ?? (typeof direct?.constraint === "string" ? direct.constraint : undefined);
  return { ...(code ? { code } : {}), ...(constraint ? { constraint } : {}) };
}

export const DATABASE_UNAVAILABLE_MESSAGE = "The database is not reachable — retrying may help";

export class DatabaseUnavailableError extends StoreError {
  override name = "DatabaseUnavailableError";
  constructor(input: { cause?: unknown } = {}) {
    super(DATABASE_UNAVAILABLE_MESSAGE, input.cause === undefined ? undefined : { cause: input.cause });
  }
}

/** Prisma adapter error kinds that mean "no working connection". */
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** Prisma engine codes: can't reach server, connect timeout, server closed the connection, pool timeout. */
const UNREACHABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01–57P03 (shutting down, crashed,
 * starting up), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/**
 * The embedded server's Unix socket is missing (server down: lib/postgres/embedded.ts) or refuses. Prisma's
 * adapter does not classify ENOENT; the PostgreSQL socket's name keeps model servers out of this,
 * so it counts without `fromDriver` too.
 */
const PG_SOCKET_DOWN = /connect (ENOENT|ECONNREFUSED) \S*\/\.s\.PGSQL\.\d+/;
/** node-postgres reports a dropped or unusable connection only in its message. */
const PG_CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection ended)/;

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  syscall?: unknown;
  clientVersion?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown; code?: unknown } } };
}

/** A Prisma error (only the database layer throws those) about a lost connection. */
function prismaUnavailable(e: ErrorShape): boolean {
  const cause = e.meta?.driverAdapterError?.cause;
  if (typeof cause?.kind === "string" && UNREACHABLE_KINDS.has(cause.kind)) return true;
  const sqlState = cause?.originalCode ?? cause?.code;
  if (typeof sqlState === "string" && UNAVAILABLE_SQLSTATE.test(sqlState)) return true;
  // A pooled connection whose server died answers its next write with a socket error, which
  // Prisma passes on as the error's code (e.g. "EPIPE" over the embedded server's Unix socket).
  return typeof e.clientVersion === "string" && typeof e.code === "string" && (UNREACHABLE_PRISMA_CODES.has(e.code) || SOCKET_CODES.has(e.code));
}

/** A node-postgres (or socket) error about a lost connection; only meaningful for a pg client's errors. */
function driverUnavailable(e: ErrorShape): boolean {
  if (typeof e.code === "string") {
    if (typeof e.severity === "string" && UNAVAILABLE_SQLSTATE.test(e.code)) return true;
    if (typeof e.syscall === "string" && SOCKET_CODES.has(e.code)) return true;
  }
  return typeof e.message === "string" && PG_CONNECTION_MESSAGES.test(e.message);
}

/**
 * True when `error`, or one of its causes (or an AggregateError's errors), says the database
 * was lost. Plain socket errors only count with `fromDriver` — for errors known to come from a
 * pg client — so a model server that refuses connections is never mistaken for the database.
 */
export function isDatabaseUnavailable(error: unknown, opts: { fromDriver?: boolean } = {}): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 20) {
    const next = queue.shift();
    if (!next || typeof next !== "object" || seen.has(next)) continue;
    seen.add(next);
    if (next instanceof DatabaseUnavailableError || prismaUnavailable(next as ErrorShape)) return true;
    const message = (next as ErrorShape).message;
    if (typeof message === "string" && PG_SOCKET_DOWN.test(message)) return true;
    if (opts.fromDriver && driverUnavailable(next as ErrorShape)) return true;
    queue.push((next as { cause?: unknown }).cause);
    if (next instanceof AggregateError) queue.push(...next.errors);
  }
  return false;
}

/** `error` as a DatabaseUnavailableError when the database was lost, else `error` itself. */
export function toDatabaseError(error: unknown, opts: { fromDriver?: boolean } = {}): unknown {
  if (error instanceof DatabaseUnavailableError) return error;
  return isDatabaseUnavailable(error, opts) ? new DatabaseUnavailableError({ cause: error }) : error;
}
