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
 * - Limits: more than `maxBytes` in total, or a line longer than `maxLineLength` bytes (checked
 *   while the line is still being read), throws LimitError naming the file (and line).
 * - `signal` is checked between chunks; on abort the source is closed and the signal's reason
 *   is thrown. Breaking out of the iteration also closes the source.
 */
import { createReadStream } from "node:fs";
import { formatBytes, LimitError } from "./errors";

export type ByteSource = string | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface Line {
  text: string;
  /** 1-based line number. */
  number: number;
  /** The file's last line, not ended by "\n" (a cut-off file ends like this). */
  unterminated?: true;
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

export class LineReader {
  /** Bytes read so far. */
  bytesRead = 0;
  /** May be changed between lines (imports use a small limit until the header is found). */
  maxLineLength: number;
  private readonly file: string;
  private readonly maxBytes: number;
  private readonly source: ByteSource;
  private readonly signal: AbortSignal | undefined;

  constructor(input: { source: ByteSource; file: string; maxBytes: number; maxLineLength: number; signal?: AbortSignal }) {
    this.source = input.source;
    this.file = input.file;
    this.maxBytes = input.maxBytes;
    this.maxLineLength = input.maxLineLength;
    this.signal = input.signal;
  }

  private tooLong(line: number): LimitError {
    return new LimitError({
      code: "line_too_long",
      file: this.file,
      line,
      limit: this.maxLineLength,
      message: `${this.file}:${line}: line is longer than the ${formatBytes(this.maxLineLength)} line limit`,
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
    for await (const chunk of chunksOf(this.source)) {
      this.signal?.throwIfAborted();
      const buf = asBuffer(chunk);
      this.bytesRead += buf.length;
      if (this.bytesRead > this.maxBytes) {
        throw new LimitError({
          code: "too_large",
          file: this.file,
          limit: this.maxBytes,
          message: `${this.file}: file is larger than the ${formatBytes(this.maxBytes)} import limit`,
        });
      }
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
        if (pendingLength + (nl - start) > this.maxLineLength) throw this.tooLong(number + 1);
        number += 1;
        yield { text: decode(buf.subarray(start, nl)), number };
        start = nl + 1;
      }
      if (start < buf.length) {
        // Copied: some sources reuse their chunk buffers.
        const rest = Buffer.from(buf.subarray(start));
        pending.push(rest);
        pendingLength += rest.length;
        if (pendingLength > this.maxLineLength) throw this.tooLong(number + 1);
      }
    }
    this.signal?.throwIfAborted();
    if (pendingLength > 0) {
      number += 1;
      yield { text: decode(Buffer.alloc(0)), number, unterminated: true };
    }
  }
}
