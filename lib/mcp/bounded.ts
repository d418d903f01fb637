/**
 * Bounded answers of the MCP tools (docs/mcp.md): every answer is JSON text, masked by
 * `maskSecrets` (the one way out for session content, docs/secrets.md), and at most `maxBytes`
 * bytes of UTF-8. Lists are paged: an answer holds the items from `offset` that fit in the cap,
 * says `truncated: true` when items remain, and `next` is the offset (or cursor) to ask for next.
 * A single item larger than the cap is sent alone with its text clipped, marked `clipped: true`.
 */
import { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { maskSecrets } from "@/lib/secrets";

export const DEFAULT_MAX_BYTES = 16_000;
export const MAX_MAX_BYTES = 200_000;
const MIN_MAX_BYTES = 1_000;

/** The `maxBytes` input every tool takes. */
export const maxBytesSchema = z
  .number()
  .int()
  .min(MIN_MAX_BYTES)
  .max(MAX_MAX_BYTES)
  .optional()
  .describe(`Byte cap of the answer (UTF-8 JSON), ${MIN_MAX_BYTES}–${MAX_MAX_BYTES}; default ${DEFAULT_MAX_BYTES}.`);

export const offsetSchema = z.number().int().min(0).optional().describe("Index of the first item to return (from a previous answer's `next`).");

/** A refusal the caller sees as the tool's error text (bad id, window past its end, a regex …). */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");

export interface Page<T> {
  items: T[];
  offset: number;
  total: number;
  truncated: boolean;
  /** The offset of the first item not returned; null when none remain. */
  next: number | null;
}

/**
 * The items of `all` from `offset` that fit, together with `head` (the answer's other fields), in
 * `maxBytes`, at most `limit` of them. Items are masked before they are measured, so the cap
 * counts what is sent. `clip` shortens one item that alone is too large.
 */
export async function pageOf<T, H extends object>(
  all: readonly T[],
  opts: { offset?: number; limit?: number; maxBytes?: number; head: H; what: string; clip?: (item: T, room: number) => T },
): Promise<H & Page<T>> {
  const offset = opts.offset ?? 0;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (offset > all.length || (offset === all.length && offset > 0)) {
    throw new ToolInputError(`offset ${offset} is past the end: there are ${all.length} ${opts.what}`);
  }
  const head = await maskSecrets(opts.head);
  const end = Math.min(all.length, offset + (opts.limit ?? all.length));
  const items: T[] = [];
  // Room for the paging fields with the widest numbers they can hold.
  let used = bytes({ ...head, items: [], offset, total: all.length, truncated: false, next: all.length }) + 2;
  let i = offset;
  for (; i < end; i++) {
    const item = await maskSecrets(all[i]!);
    const size = bytes(item) + 1;
    if (used + size > maxBytes) {
      if (items.length === 0 && opts.clip) {
        items.push(opts.clip(item, Math.max(200, maxBytes - used - 200)));
        i++;
      }
      break;
    }
    items.push(item);
    used += size;
  }
  const truncated = i < all.length;
  return { ...head, items, offset, total: all.length, truncated, next: truncated ? i : null };
}

/** Cuts `text` to at most `room` bytes of JSON, marking the cut. */
export function clipText(text: string, room: number): string {
  if (bytes(text) <= room) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bytes(text.slice(0, mid)) + 40 <= room) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}… [clipped: ${text.length - lo} more characters]`;
}

/** The tool result: the (already masked and bounded) value as JSON text. */
export async function answer(value: object): Promise<CallToolResult> {
  const masked = await maskSecrets(value);
  return { content: [{ type: "text", text: JSON.stringify(masked) }] };
}
