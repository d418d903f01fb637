/**
 * File-content helpers shared by the tools and the file panel: text/binary classification, MIME
 * types, line splitting and unified diffs.
 * A file is binary when its first 8 KB contain a NUL byte or it is not valid UTF-8; binary files
 * are described ("Binary file, 12,345 bytes, image/png"), never dumped into the model's context.
 */
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { formatCount } from "./limits";

const SNIFF_BYTES = 8192;

const MIME_BY_EXTENSION: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".bmp": "image/bmp",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".gz": "application/gzip",
  ".tar": "application/x-tar",
  ".wasm": "application/wasm",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".html": "text/html",
  ".htm": "text/html",
  ".css": "text/css",
  ".csv": "text/csv",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".ts": "text/typescript",
  ".tsx": "text/typescript",
  ".jsx": "text/javascript",
  ".json": "application/json",
  ".jsonl": "application/x-ndjson",
  ".xml": "application/xml",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".py": "text/x-python",
  ".sh": "application/x-sh",
};

/** Magic numbers win over extensions: a PNG renamed to .txt is still a PNG. */
const MAGIC: { bytes: number[]; offset?: number; mime: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], mime: "image/png" },
  { bytes: [0xff, 0xd8, 0xff], mime: "image/jpeg" },
  { bytes: [0x47, 0x49, 0x46, 0x38], mime: "image/gif" },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], mime: "application/pdf" },
  { bytes: [0x50, 0x4b, 0x03, 0x04], mime: "application/zip" },
  { bytes: [0x1f, 0x8b], mime: "application/gzip" },
  { bytes: [0x00, 0x61, 0x73, 0x6d], mime: "application/wasm" },
  { bytes: [0x57, 0x45, 0x42, 0x50], offset: 8, mime: "image/webp" },
];

function startsWith(buf: Uint8Array, bytes: number[], offset = 0): boolean {
  if (buf.length < offset + bytes.length) return false;
  return bytes.every((b, i) => buf[offset + i] === b);
}

/** MIME type from the leading bytes when recognisable, else from the extension, else a default. */
export function detectMimeType(fileName: string, head: Uint8Array | undefined, isText: boolean): string {
  if (head) {
    for (const m of MAGIC) if (startsWith(head, m.bytes, m.offset)) return m.mime;
  }
  const byExt = MIME_BY_EXTENSION[path.extname(fileName).toLowerCase()];
  if (byExt) return byExt;
  return isText ? "text/plain" : "application/octet-stream";
}

export type Decoded = { kind: "text"; text: string } | { kind: "binary" };

/** Classifies and decodes a whole file. A byte-order mark is kept, so edits round-trip exactly. */
export function decodeFile(buf: Uint8Array): Decoded {
  if (buf.subarray(0, SNIFF_BYTES).includes(0)) return { kind: "binary" };
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(buf);
    return { kind: "text", text };
  } catch {
    return { kind: "binary" };
  }
}

/** "Binary file, 12,345 bytes, image/png" */
export function describeBinary(fileName: string, buf: Uint8Array): string {
  const mime = detectMimeType(fileName, buf.subarray(0, SNIFF_BYTES), false);
  return `Binary file, ${formatCount(buf.length)} bytes, ${mime}`;
}

/**
 * Splits text into lines on LF or CRLF. A trailing newline ends the last line rather than
 * starting an empty one, so "a\nb\n" has 2 lines and "" has 0.
 */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export interface DiffDetails {
  /** Unified diff old→new with `a/` and `b/` file headers; absent when omitted. */
  diff?: string;
  /** Why the diff is absent: the old file was binary, or the diff exceeds the limit. */
  diffOmitted?: "binary" | "tooLarge";
}

/** Gives up on pathological inputs rather than blocking the server on a huge edit script. */
const DIFF_TIMEOUT_MS = 2000;

/** A unified diff (3 lines of context) for the UI, capped at `maxDiffBytes`. */
export function unifiedDiff(relPath: string, oldText: string, newText: string, maxDiffBytes: number): DiffDetails {
  const diff = createTwoFilesPatch(`a/${relPath}`, `b/${relPath}`, oldText, newText, undefined, undefined, {
    context: 3,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (diff === undefined || Buffer.byteLength(diff, "utf8") > maxDiffBytes) return { diffOmitted: "tooLarge" };
  return { diff };
}
