import "server-only";
/**
 * Entry rows in PostgreSQL's binary COPY format, for bulk loads (lib/db/entry-load.ts).
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
 * - Chunks are fresh buffers handed over to the caller (the socket may still hold them).
 */
import type { EntryRow } from "./entry-columns";
import { toPgJson } from "./pg-json";

/** The COPY column list; the order of each tuple's fields. */
export const ENTRY_COPY_COLUMNS = `session_id, id, parent_id, type, "timestamp", seq, data, role, tokens, text`;
const FIELDS = 10;
/** "PGCOPY\n\377\r\n\0", flags 0, header extension length 0. */
const COPY_HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
const COPY_TRAILER = Buffer.from([0xff, 0xff]);
/** jsonb's binary input: a version byte (1), then the JSON text (json's: the text alone). */
const JSONB_VERSION = 1;
const CHUNK = 1024 * 1024;

export class EntryCopyEncoder {
  /**
   * The type of the `data` column: `json` (entries, since migration 20270103000000), whose
   * binary input is the text alone, or `jsonb` (a version byte, then the text).
   */
  constructor(private readonly dataType: "jsonb" | "json" = "json") {}

  private buf = Buffer.allocUnsafe(CHUNK);
  private pos = 0;

  header(): Buffer {
    return COPY_HEADER;
  }

  trailer(): Buffer {
    return COPY_TRAILER;
  }

  /** Bytes encoded and not yet taken. */
  get size(): number {
    return this.pos;
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

  /** The encoded bytes so far, as a buffer of their own. */
  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(CHUNK);
    this.pos = 0;
    return out;
  }

  private reserve(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(CHUNK, this.pos + bytes));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  private text(value: string | null): void {
    if (value === null) {
      this.buf.writeInt32BE(-1, this.pos);
      this.pos += 4;
      return;
    }
    const safe = value.includes("\u0000") ? value.replaceAll("\u0000", "\ufffd") : value;
    const n = this.buf.write(safe, this.pos + 4, "utf8");
    this.buf.writeInt32BE(n, this.pos);
    this.pos += 4 + n;
  }

  private int(value: number): void {
    this.buf.writeInt32BE(4, this.pos);
    this.buf.writeInt32BE(value, this.pos + 4);
    this.pos += 8;
  }
}
