/**
 * Safety limits for the workspace tools, and the one place output is cut.
 * Every tool result is capped at `maxOutputLines` lines and `maxOutputBytes` UTF-8 bytes; when
 * something is cut the tool appends a note saying what was cut and how to get the rest, so the
 * model never mistakes a partial result for a complete one.
 */
import { formatBytes } from "@/lib/text/byte-size";

export interface ToolLimits {
  /** Lines of output per call. */
  maxOutputLines: number;
  /** UTF-8 bytes of output per call (the note is not counted). */
  maxOutputBytes: number;
  /** Largest file read, edit and grep will open; read/edit fail clearly above it, grep skips. */
  maxFileBytes: number;
  /** Largest `content` write accepts, in UTF-8 bytes. */
  maxWriteBytes: number;
  /** Paths find lists / matches grep reports before stopping. */
  maxResults: number;
  /** Characters of a matched line grep shows. */
  maxLineChars: number;
  /** Entries find and grep visit before giving up (guards against huge trees). */
  maxScanEntries: number;
  /** Largest unified diff carried in `details`; bigger diffs are left out (flagged). */
  maxDiffBytes: number;
  /** Wall-clock budget for grep's regular expression matching (guards against ReDoS). */
  grepTimeoutMs: number;
}

export const DEFAULT_LIMITS: ToolLimits = {
  maxOutputLines: 2000,
  maxOutputBytes: 50 * 1024,
  maxFileBytes: 10 * 1024 * 1024,
  maxWriteBytes: 10 * 1024 * 1024,
  maxResults: 1000,
  maxLineChars: 500,
  maxScanEntries: 100_000,
  maxDiffBytes: 512 * 1024,
  grepTimeoutMs: 10_000,
};

export function resolveLimits(overrides?: Partial<ToolLimits>): ToolLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

/** 15320 → "15,320" (fixed locale so output does not depend on the server). */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** The longest prefix of `s` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function truncateToBytes(s: string, maxBytes: number): string {
  const buf = new Uint8Array(Math.max(0, maxBytes));
  const { read } = new TextEncoder().encodeInto(s, buf);
  return s.slice(0, read);
}

export interface CappedLines {
  lines: string[];
  /** Why output stopped early; undefined when every line fitted. */
  cutBy?: "lines" | "bytes";
  /** The last kept line was itself cut to fit the byte budget. */
  partialLine: boolean;
}

/**
 * Keeps leading lines within both the line and byte budgets (each line costs its bytes plus a
 * newline). A first line that alone exceeds the byte budget is cut rather than dropped, so a
 * minified file still shows something.
 */
export function capLines(lines: readonly string[], limits: Pick<ToolLimits, "maxOutputLines" | "maxOutputBytes">): CappedLines {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    if (kept.length >= limits.maxOutputLines) return { lines: kept, cutBy: "lines", partialLine: false };
    const cost = Buffer.byteLength(line, "utf8") + 1;
    if (bytes + cost > limits.maxOutputBytes) {
      if (kept.length === 0) return { lines: [truncateToBytes(line, limits.maxOutputBytes)], cutBy: "bytes", partialLine: true };
      return { lines: kept, cutBy: "bytes", partialLine: false };
    }
    kept.push(line);
    bytes += cost;
  }
  return { lines: kept, partialLine: false };
}

export interface TruncationNoteInput {
  /** What the output is made of: "lines" (read) or "entries"/"matches" (lists). */
  unit: "lines" | "entries" | "matches";
  /** 1-based first and last item shown. */
  from: number;
  to: number;
  /** Total items, when known. */
  total?: number;
  cutBy: "lines" | "bytes" | "results" | "scan";
  limits: ToolLimits;
  /** How to see more, e.g. "Use offset/limit to read more." */
  hint: string;
}

/**
 * `[Output truncated: showing lines 1-2000 of 15,320. Use offset/limit to read more.]`
 * The byte variant names the byte limit: `[Output truncated at 50 KB: …]`.
 */
export function truncationNote(n: TruncationNoteInput): string {
  const why =
    n.cutBy === "bytes"
      ? ` at ${formatBytes(n.limits.maxOutputBytes)}`
      : n.cutBy === "results"
        ? ` at ${formatCount(n.limits.maxResults)} ${n.unit}`
        : n.cutBy === "scan"
          ? ` after scanning ${formatCount(n.limits.maxScanEntries)} entries`
          : "";
  const range = n.unit === "lines" ? `lines ${n.from}-${n.to}` : `${n.unit} ${n.from}-${n.to}`;
  const of = n.total === undefined ? "" : ` of ${formatCount(n.total)}`;
  return `[Output truncated${why}: showing ${range}${of}. ${n.hint}]`;
}
