import "server-only";
/**
 * Bytes → UTF-8 lines, streaming, for imports.
 *
 * Contract:
 * - Input: a file path, a web ReadableStream or any AsyncIterable of byte chunks. Never builds a
 *   whole-file string: memory is one chunk plus the current line.
 * - Lines are split on "\n" bytes, which never occur inside a multi-byte UTF-8 sequence, so a
 *   character split across chunks is decoded whole. A trailing "\r" (CRLF files) and a leading
 *   BOM are removed; a last line without "\n" is still returned. Invalid UTF-8 becomes U+FFFD.
 * - Blank lines (empty, or only spaces, tabs and "\r") are never yielded: they are counted in
 *   `blankLines` and cost no per-line work beyond the byte scan, so a flood of newlines cannot
 *   make the reader (and the event loop) do a generator round trip per byte. Line numbers still
 *   count them. Callers that find more blank lines (e.g. other Unicode whitespace) report them
 *   through `noteBlank`, so they count toward the same limit.
 * - Limits: more than `maxBytes` in total (every byte counts, whatever it is), a line longer than
 *   `maxLineLength` bytes (checked while the line is still being read; while
 *   `maxOpaqueLineLength` is set, a line not starting with "{" gets that lower limit), or more than
 *   `maxBlankLines` blank lines throws LimitError naming the file (and line).
 * - `signal` is checked between chunks and also ends a wait for the next chunk (a source that
 *   stalls cannot outlive an import's time budget); on abort the source is closed and the
 *   signal's reason is thrown. Breaking out of the iteration also closes the source.
 */
import { createReadStream } from "node:fs";
import { formatBytes } from "@/lib/text/byte-size";
import { LimitError } from "../errors";

export type ByteSource = string | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface Line {
  text: string;
  /** 1-based line number. */
  number: number;
  /** The file's last line, not ended by "\n" (a cut-off file ends like this). */
  unterminated?: true;
  /**
   * The object `text` was made from (`text` is its JSON.stringify: a mapped record's entry,
   * lib/db/import/formats.ts), which the importer takes instead of parsing `text` again. Only
   * for a line used at once: nothing changes the object after the line is read.
   */
  value?: object;
}

async function* fromWebStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    while (true) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function chunksOf(source: ByteSource): AsyncIterable<Uint8Array> {
  if (typeof source === "string") return createReadStream(source, { highWaterMark: 1024 * 1024 });
  if (typeof (source as ReadableStream<Uint8Array>).getReader === "function") {
    return fromWebStream(source as ReadableStream<Uint8Array>);
  }
  return source as AsyncIterable<Uint8Array>;
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** The next chunk, or the signal's reason as soon as it aborts (even while the source stalls). */
function nextChunk(it: AsyncIterator<Uint8Array>, signal: AbortSignal | undefined): Promise<IteratorResult<Uint8Array>> {
  if (!signal) return it.next();
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    it.next().then(
      (r) => {
        signal.removeEventListener("abort", onAbort);
        resolve(r);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** True when bytes [start, end) are only spaces, tabs and "\r" (an empty range included). */
function isBlankBytes(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = buf[i];
    if (b !== 32 && b !== 9 && b !== 13) return false;
  }
  return true;
}

export class LineReader {
  /** Bytes read so far. */
  bytesRead = 0;
  /** Blank lines seen so far (never yielded), including those reported through `noteBlank`. */
  blankLines = 0;
  /** May be changed between lines. */
  maxLineLength: number;
  /**
   * While set, a lower limit for lines that do not start with "{" (after blanks): what a session
   * file cannot hold before its format is known, so a binary file without newlines is refused
   * after this many bytes, while a first record of any size (a pasted prompt with images) is
   * still read whole. Imports clear it once the format and header are known.
   */
  maxOpaqueLineLength: number | undefined;
  private readonly file: string;
  private readonly maxBytes: number;
  private readonly maxBlankLines: number;
  private readonly source: ByteSource;
  private readonly signal: AbortSignal | undefined;

  constructor(input: {
    source: ByteSource;
    file: string;
    maxBytes: number;
    maxLineLength: number;
    maxOpaqueLineLength?: number;
    /** Default: unlimited. */
    maxBlankLines?: number;
    signal?: AbortSignal;
  }) {
    this.source = input.source;
    this.file = input.file;
    this.maxBytes = input.maxBytes;
    this.maxBlankLines = input.maxBlankLines ?? Number.POSITIVE_INFINITY;
    this.maxLineLength = input.maxLineLength;
    this.maxOpaqueLineLength = input.maxOpaqueLineLength;
    this.signal = input.signal;
  }

  /** The limit for the line whose first bytes are `head` (see maxOpaqueLineLength). */
  private limitFor(head: Buffer): number {
    const opaque = this.maxOpaqueLineLength;
    if (opaque === undefined || opaque >= this.maxLineLength) return this.maxLineLength;
    for (const b of head.subarray(0, 64)) {
      if (b === 32 || b === 9 || b === 13) continue;
      // A BOM (EF BB BF) may precede the first line's "{".
      if (b === 0xef || b === 0xbb || b === 0xbf) continue;
      return b === 0x7b ? this.maxLineLength : opaque;
    }
    return opaque;
  }

  private tooLong(line: number, limit: number): LimitError {
    return new LimitError({
      code: "line_too_long",
      file: this.file,
      line,
      limit,
      message: `${this.file}:${line}: line is longer than the ${formatBytes(limit)} line limit`,
    });
  }

  /** Counts one blank line (line `line`), throwing LimitError past `maxBlankLines`. */
  noteBlank(line: number): void {
    this.blankLines += 1;
    if (this.blankLines <= this.maxBlankLines) return;
    throw new LimitError({
      code: "too_many_blank_lines",
      file: this.file,
      line,
      limit: this.maxBlankLines,
      message:
        `${this.file}:${line}: more than ${this.maxBlankLines.toLocaleString("en-US")} blank lines; ` +
        "a session file has one JSON object a line (is this file padded or corrupted?)",
    });
  }

  async *lines(): AsyncGenerator<Line> {
    let pending: Buffer[] = [];
    let pendingLength = 0;
    let number = 0;
    const decode = (tail: Buffer): string => {
      const bytes = pendingLength === 0 ? tail : Buffer.concat([...pending, tail], pendingLength + tail.length);
      pending = [];
      pendingLength = 0;
      let text = bytes.toString("utf8");
      if (text.endsWith("\r")) text = text.slice(0, -1);
      if (number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      return text;
    };
    const it = chunksOf(this.source)[Symbol.asyncIterator]();
    let finished = false;
    try {
      for (let next = await nextChunk(it, this.signal); !next.done; next = await nextChunk(it, this.signal)) {
        const buf = asBuffer(next.value);
        this.countBytes(buf.length);
        let start = 0;
        for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
          const lineLimit = this.limitFor(pendingLength > 0 ? pending[0]! : buf.subarray(start, nl));
          if (pendingLength + (nl - start) > lineLimit) throw this.tooLong(number + 1, lineLimit);
          number += 1;
          if (pendingLength === 0 && isBlankBytes(buf, start, nl)) {
            // The fast path of a newline flood: no decoding, no yield.
            this.noteBlank(number);
          } else {
            const text = decode(buf.subarray(start, nl));
            if (text.trim() === "") this.noteBlank(number);
            else yield { text, number };
          }
          start = nl + 1;
        }
        if (start < buf.length) {
          // Copied: some sources reuse their chunk buffers.
          const rest = Buffer.from(buf.subarray(start));
          pending.push(rest);
          pendingLength += rest.length;
          const lineLimit = this.limitFor(pending[0]!);
          if (pendingLength > lineLimit) throw this.tooLong(number + 1, lineLimit);
        }
      }
      finished = true;
    } finally {
      // Closes the source (file stream, web stream) when stopped early. Not awaited: a stalled
      // source may never answer.
      if (!finished) void Promise.resolve(it.return?.()).catch(() => undefined);
    }
    this.signal?.throwIfAborted();
    if (pendingLength > 0) {
      number += 1;
      const text = decode(Buffer.alloc(0));
      if (text.trim() === "") this.noteBlank(number);
      else yield { text, number, unterminated: true };
    }
  }

  private countBytes(n: number): void {
    this.bytesRead += n;
    if (this.bytesRead <= this.maxBytes) return;
    throw new LimitError({
      code: "too_large",
      file: this.file,
      limit: this.maxBytes,
      message: `${this.file}: file is larger than the ${formatBytes(this.maxBytes)} import limit`,
    });
  }
}
