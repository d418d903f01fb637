import "server-only";
/**
 * Entry rows in PostgreSQL's binary COPY format, for bulk loads (lib/db/import/entry-load.ts).
 *
 * Why binary, not text or CSV: a text field must be escaped (every "\" of the JSON doubled,
 * tabs and newlines of the plain text rewritten), which cost more than the whole COPY saved;
 * binary fields are length-prefixed UTF-8, written straight into the buffer.
 *
 * Contract:
 * - `EntryCopyEncoder` turns rows into chunks: COPY_HEADER first (written by `header()`), one
 *   tuple per row holding ENTRY_COPY_COLUMNS in that order, COPY_TRAILER last (`trailer()`).
 * - Values are what insertEntryRows stores for the same row: `data` is toPgJson of the entry
 *   (or the caller's JSON text of it, see `add`), text columns as toPgText would make them
 *   (U+0000 → U+FFFD here; lone surrogates become U+FFFD when encoded to UTF-8).
 * - Rows are encoded into buffers of at least CHUNK bytes; a row that does not fit the rest of
 *   the current one starts the next (nothing is ever copied to grow a buffer). `take()` hands
 *   the filled buffers to the caller for good (the socket may still hold them) and starts
 *   afresh, so memory is what was added since the last take, rounded up to a CHUNK.
 */
import type { EntryRow } from "../store/entry-columns";
import { toPgJson } from "../pg-json";

/** The COPY column list; the order of each tuple's fields. */
export const ENTRY_COPY_COLUMNS = `session_id, id, parent_id, type, "timestamp", seq, data, role, tokens, text`;
const FIELDS = 10;
/** "PGCOPY\n\377\r\n\0", flags 0, header extension length 0. */
export const COPY_HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
export const COPY_TRAILER = Buffer.from([0xff, 0xff]);
/** jsonb's binary input: a version byte (1), then the JSON text (json's: the text alone). */
const JSONB_VERSION = 1;
/** Size of the buffers rows are encoded into (one CopyData message each). */
const CHUNK = 256 * 1024;

/** A text as PostgreSQL stores it (text cannot hold U+0000). */
export function storedText(value: string): string {
  return value.includes("\u0000") ? value.replaceAll("\u0000", "\ufffd") : value;
}

export class EntryCopyEncoder {
  /**
   * The binary form of the `data` column: "json" for a column whose binary input is the text
   * alone (entries' text since migration 20270128000001, json from 20270103000000 until then),
   * or "jsonb" (a version byte, then the text).
   */
  constructor(private readonly dataType: "jsonb" | "json" = "json") {}

  private buf = Buffer.allocUnsafe(CHUNK);
  private pos = 0;
  /** Filled buffers not yet taken, in order. */
  private full: Buffer[] = [];
  private fullBytes = 0;

  header(): Buffer {
    return COPY_HEADER;
  }

  trailer(): Buffer {
    return COPY_TRAILER;
  }

  /** Bytes encoded and not yet taken. */
  get size(): number {
    return this.fullBytes + this.pos;
  }

  /**
   * Encodes one row. `json`, when given, is JSON text of `row.data` that PostgreSQL accepts as
   * it is (the import passes the file's own line when it proved that safe); else toPgJson.
   */
  add(sessionId: string, row: EntryRow, seq: number, json?: string): void {
    const data = json ?? toPgJson(row.data);
    const { id, parentId, type, timestamp, role, text } = row;
    // Worst case 3 UTF-8 bytes per UTF-16 code unit, plus 4 length bytes per field.
    const most = 3 * (sessionId.length + id.length + (parentId?.length ?? 0) + type.length + timestamp.length + data.length + (role?.length ?? 0) + (text?.length ?? 0)) + 2 + FIELDS * 4 + 8 + 1;
    this.reserve(most);
    this.buf.writeInt16BE(FIELDS, this.pos);
    this.pos += 2;
    this.text(sessionId);
    this.text(id);
    this.text(parentId);
    this.text(type);
    this.text(timestamp);
    this.int(seq);
    if (this.dataType === "jsonb") {
      this.buf.writeInt32BE(1 + this.buf.write(data, this.pos + 5, "utf8"), this.pos);
      this.buf[this.pos + 4] = JSONB_VERSION;
    } else {
      this.buf.writeInt32BE(this.buf.write(data, this.pos + 4, "utf8"), this.pos);
    }
    this.pos += 4 + this.buf.readInt32BE(this.pos);
    this.text(role);
    this.int(row.tokens);
    this.text(text);
  }

  /** The encoded bytes so far, in order, as buffers of their own (none when nothing was added). */
  take(): Buffer[] {
    const out = this.full;
    if (this.pos > 0) {
      out.push(this.buf.subarray(0, this.pos));
      // The rest of the buffer is reused when it is large; the taken part is never written again.
      this.buf = this.buf.length - this.pos >= CHUNK / 4 ? this.buf.subarray(this.pos) : Buffer.allocUnsafe(CHUNK);
      this.pos = 0;
    }
    this.full = [];
    this.fullBytes = 0;
    return out;
  }

  /** Room for `bytes` more in the current buffer: else it is sealed and a new one started. */
  private reserve(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    if (this.pos > 0) {
      this.full.push(this.buf.subarray(0, this.pos));
      this.fullBytes += this.pos;
    }
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK, bytes));
    this.pos = 0;
  }

  private text(value: string | null): void {
    if (value === null) {
      this.buf.writeInt32BE(-1, this.pos);
      this.pos += 4;
      return;
    }
    const n = this.buf.write(storedText(value), this.pos + 4, "utf8");
    this.buf.writeInt32BE(n, this.pos);
    this.pos += 4 + n;
  }

  private int(value: number): void {
    this.buf.writeInt32BE(4, this.pos);
    this.buf.writeInt32BE(value, this.pos + 4);
    this.pos += 8;
  }
}
