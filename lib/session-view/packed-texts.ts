/**
 * A growable list of short texts (skeleton row texts) packed into one Latin-1 byte buffer, for
 * a server that keeps them as long as a session is cached: a JS string costs ~20 bytes of header
 * and slot besides its characters, a clipped text ends in "…" (U+2026), which would make it a
 * two-byte string, and a sliced string keeps the whole text it was cut from alive.
 *
 * Contract:
 * - `get(i)` / `range(from, to)` give back exactly the texts pushed (or set since), in order.
 * - A text of Latin-1 characters (optionally ending in one "…") is stored as its bytes (the "…"
 *   as a mark); any other text, and a text replaced by `set`, is kept as a string (a copy of its
 *   own) in a side map.
 * - `bytes()` is the memory held, ArrayBuffers included (what the read model charges).
 * Growth is by 1/8 (and `trim()` to the exact size after a bulk build), so the slack stays small.
 */

const PLAIN = 0;
const ELLIPSIS = 1;
const WIDE = 2;
const ELLIPSIS_CHAR = "…";
const NOT_LATIN1 = /[^\u0000-\u00ff]/;
/** Heap of one side-map text besides its characters: a Map slot and a string header (measured). */
const WIDE_ENTRY_BYTES = 56;

/** A copy of `text` of its own (a slice or concatenation may keep longer strings alive). */
export function ownCopy(text: string): string {
  return NOT_LATIN1.test(text) ? Buffer.from(text, "utf16le").toString("utf16le") : Buffer.from(text, "latin1").toString("latin1");
}

/** Bytes of a string's characters: one a character for Latin-1 text, else two. */
export function stringBytes(text: string): number {
  return NOT_LATIN1.test(text) ? text.length * 2 : text.length;
}

function grow<A extends Uint8Array | Uint32Array>(array: A, need: number, make: (size: number) => A): A {
  if (need <= array.length) return array;
  const next = make(Math.max(need, Math.ceil(array.length * 1.125) + 64));
  next.set(array);
  return next;
}

export class PackedTexts {
  private buf: Buffer = Buffer.alloc(0);
  /** End offset in `buf` of each text (its start is the previous text's end). */
  private ends = new Uint32Array(0);
  private marks = new Uint8Array(0);
  private readonly wide = new Map<number, string>();
  private wideBytes = 0;
  private used = 0;
  length = 0;

  push(text: string): void {
    const i = this.length;
    this.ends = grow(this.ends, i + 1, (n) => new Uint32Array(n));
    this.marks = grow(this.marks, i + 1, (n) => new Uint8Array(n));
    const clipped = text.endsWith(ELLIPSIS_CHAR);
    const size = clipped ? text.length - 1 : text.length;
    this.buf = grow(this.buf, this.used + size, (n) => Buffer.alloc(n));
    // Copied a code unit at a time (faster than a native write per short text); a character
    // beyond Latin-1 sends the whole text to the side map instead.
    let k = 0;
    for (; k < size; k++) {
      const code = text.charCodeAt(k);
      if (code > 0xff) break;
      this.buf[this.used + k] = code;
    }
    if (k < size) this.keepWide(i, text);
    else {
      this.used += size;
      this.marks[i] = clipped ? ELLIPSIS : PLAIN;
    }
    this.ends[i] = this.used;
    this.length = i + 1;
  }

  /** Replaces text `i` (kept in the side map from then on). */
  set(i: number, text: string): void {
    if (i < 0 || i >= this.length) throw new RangeError(`No text ${i}`);
    if (this.marks[i] === WIDE) this.wideBytes -= stringBytes(this.wide.get(i)!);
    this.keepWide(i, text);
  }

  get(i: number): string {
    return this.range(i, i + 1)[0]!;
  }

  /** Texts `from` (inclusive) to `to` (exclusive), decoded together. */
  range(from: number, to: number): string[] {
    const end = Math.min(to, this.length);
    if (from >= end) return [];
    const base = from === 0 ? 0 : this.ends[from - 1]!;
    const all = this.buf.toString("latin1", base, this.ends[end - 1]!);
    const out: string[] = new Array(end - from);
    let start = 0;
    for (let i = from; i < end; i++) {
      const stop = this.ends[i]! - base;
      const mark = this.marks[i];
      if (mark === WIDE) out[i - from] = this.wide.get(i)!;
      else if (mark === ELLIPSIS) out[i - from] = `${all.slice(start, stop)}${ELLIPSIS_CHAR}`;
      else out[i - from] = all.slice(start, stop);
      start = stop;
    }
    return out;
  }

  /** Drops the growth slack (after a bulk build). */
  trim(): void {
    this.buf = this.buf.length === this.used ? this.buf : Buffer.from(this.buf.subarray(0, this.used));
    this.ends = this.ends.slice(0, this.length);
    this.marks = this.marks.slice(0, this.length);
  }

  bytes(): number {
    return this.buf.length + this.ends.byteLength + this.marks.byteLength + this.wide.size * WIDE_ENTRY_BYTES + this.wideBytes;
  }

  private keepWide(i: number, text: string): void {
    this.wide.set(i, ownCopy(text));
    this.wideBytes += stringBytes(text);
    this.marks[i] = WIDE;
  }
}
