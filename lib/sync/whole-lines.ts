import "server-only";
/**
 * Reading a session file that another program may still be writing, as a sync needs it: only
 * its whole lines (the bytes up to the last "\n"; a line cut at the end waits for the next
 * sync), and checksums of what was read.
 *
 * Contract of `readWholeLines(file, { size, checkBytes, signal })`:
 * - Reads the first `size` bytes (the size the caller saw in stat: bytes written meanwhile are
 *   left for the next sync), streaming: memory is one chunk plus the current line.
 * - Yields each whole line with its 1-based number and the byte offset where it starts; a
 *   leading BOM and a trailing "\r" are removed. The unfinished tail is never yielded.
 * - Afterwards `prefixBytes` is the length of the whole-line prefix, `prefixSha256` its sha256
 *   (hex), and `checkSha256` the sha256 of the first `checkBytes` bytes (null when the file is
 *   shorter), so a caller can tell whether what it imported before is still the file's start.
 * - `lastNewlineOffset(file, size)`: the whole-line prefix length without reading the file
 *   (it scans back from the end), for handing the import exactly those bytes.
 */
import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { FormatDetector } from "@/lib/formats/detect";
import type { FormatId } from "@/lib/formats/types";
import { parseJsonlLine } from "@/lib/session/file/jsonl";

export interface WholeLine {
  text: string;
  number: number;
  /** Byte offset of the line's first byte in the file. */
  start: number;
}

const NL = 0x0a;

export class WholeLineReader {
  prefixBytes = 0;
  prefixSha256 = "";
  checkSha256: string | null = null;
  private readonly prefixHash: Hash = createHash("sha256");
  private readonly checkHash: Hash = createHash("sha256");
  private checked = 0;

  constructor(
    private readonly file: string,
    private readonly opts: { size: number; checkBytes: number; signal?: AbortSignal },
  ) {}

  private feedCheck(bytes: Buffer): void {
    const want = this.opts.checkBytes - this.checked;
    if (want <= 0) return;
    const part = bytes.subarray(0, Math.min(want, bytes.length));
    this.checkHash.update(part);
    this.checked += part.length;
  }

  async *lines(): AsyncGenerator<WholeLine> {
    const { size, signal } = this.opts;
    let carry: Buffer = Buffer.alloc(0);
    let offset = 0; // file offset of carry[0]
    let number = 0;
    if (size > 0) {
      for await (const raw of createReadStream(this.file, { start: 0, end: size - 1, highWaterMark: 1024 * 1024 })) {
        signal?.throwIfAborted();
        const chunk = raw as Buffer;
        this.feedCheck(chunk);
        const buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
        let from = 0;
        for (let nl = buf.indexOf(NL, from); nl !== -1; nl = buf.indexOf(NL, from)) {
          number += 1;
          let text = buf.toString("utf8", from, nl);
          if (text.endsWith("\r")) text = text.slice(0, -1);
          if (number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
          const start = offset + from;
          from = nl + 1;
          yield { text, number, start };
        }
        this.prefixHash.update(buf.subarray(0, from));
        this.prefixBytes = offset + from;
        carry = Buffer.from(buf.subarray(from));
        offset += from;
      }
    }
    this.prefixSha256 = this.prefixHash.digest("hex");
    this.checkSha256 = this.checked === this.opts.checkBytes ? this.checkHash.digest("hex") : null;
  }
}

/** Bytes up to and including the last "\n" among the first `size` bytes (0: no whole line). */
export async function lastNewlineOffset(file: string, size: number): Promise<number> {
  const handle = await open(file, "r");
  try {
    const block = Buffer.alloc(64 * 1024);
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - block.length);
      const { bytesRead } = await handle.read(block, 0, end - start, start);
      const at = block.subarray(0, bytesRead).lastIndexOf(NL);
      if (at !== -1) return start + at + 1;
      end = start;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

/** sha256 (hex) of the first `bytes` bytes of the file. */
export async function sha256Prefix(file: string, bytes: number): Promise<string> {
  const hash = createHash("sha256");
  if (bytes > 0) for await (const chunk of createReadStream(/*turbopackIgnore: true*/ file, { start: 0, end: bytes - 1 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The format of the file's first whole lines (lib/formats/detect.ts); null when none matches. */
export async function detectFileFormat(file: string, size: number): Promise<FormatId | null> {
  const detector = new FormatDetector();
  const reader = new WholeLineReader(file, { size, checkBytes: 0 });
  for await (const line of reader.lines()) {
    const { value } = parseJsonlLine(line.text, line.number);
    if (value && detector.push(value, line.number, line.text.length)) break;
  }
  return detector.result().format;
}
