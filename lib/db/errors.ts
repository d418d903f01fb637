import "server-only";
/**
 * Errors of the session store, import and export. Every message is written for the person who
 * sees it (the UI shows them as they are); the fields let callers react without parsing text.
 *
 * - ConflictError: a write stated the leaf it expected and the session's leaf had moved
 *   (another tab or process wrote first). Nothing was written; reload and try again.
 * - NotFoundError: the session, or an entry named by the write, does not exist.
 * - IdCollisionError: a new entry reused an id the session already has (or references); the
 *   caller draws new ids and retries. Nothing was written.
 * - ImportError (and LimitError): an import failed and left nothing behind. `file` names the
 *   file, `line` and `field` say where when known.
 */

export const CONFLICT_MESSAGE = "This session changed in another tab — reload";

export class StoreError extends Error {
  override name = "StoreError";
}

export class ConflictError extends StoreError {
  override name = "ConflictError";
  readonly sessionId: string;
  readonly expectedLeafId: string | null;
  readonly actualLeafId: string | null;
  constructor(input: { sessionId: string; expectedLeafId: string | null; actualLeafId: string | null }) {
    super(CONFLICT_MESSAGE);
    this.sessionId = input.sessionId;
    this.expectedLeafId = input.expectedLeafId;
    this.actualLeafId = input.actualLeafId;
  }
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

export type ImportErrorCode =
  | "not_session"
  | "invalid_entry"
  | "duplicate_id"
  | "exists"
  | "too_large"
  | "line_too_long"
  | "cancelled"
  | "read_failed";

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

/** An import limit was exceeded (file size or line length). */
export class LimitError extends ImportError {
  override name = "LimitError";
  /** The limit, in bytes. */
  readonly limit: number;
  constructor(input: { code: "too_large" | "line_too_long"; file: string; message: string; limit: number; line?: number }) {
    super(input);
    this.limit = input.limit;
  }
}

/** "256 MB", "64 KB", "512 bytes": limits in messages. */
export function formatBytes(bytes: number): string {
  const units = [
    [1024 ** 3, "GB"],
    [1024 ** 2, "MB"],
    [1024, "KB"],
  ] as const;
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const n = bytes / size;
      return `${Number.isInteger(n) ? n : n.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
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
