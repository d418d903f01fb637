/**
 * The compact wire form of skeleton rows (tree-skeleton.ts), as the session page embeds them in
 * its HTML and the skeleton route returns them: one small array per entry instead of an object
 * with repeated keys, so a 10k-entry session's skeleton stays well under a megabyte.
 * Pure: no network, disk or database access. `decodeRows(encodeRows(rows))` equals `rows`
 * except for `toolCallId`, which only the server needs (resolveSkeleton) and is not shipped.
 *
 * Row: `[id, parent, kind, text, tokens, flags, dt, extra?]`
 * - parent: the parent id; `0` for none; `1` for "the previous row of this chunk" (chains are
 *   the common case and a short id is 8 characters);
 * - kind: `entry.type`, or `.` + role for message entries (`.user`, `.toolResult`);
 * - dt: the timestamp minus the previous row's timestamp in this chunk (the first: since the
 *   epoch); `null` for an unparsable timestamp;
 * - extra: only for label / pin / compaction / branch-summary rows and multi-line user messages: `{ k: targetId, v: labelValue,
 *   n: pinned (1 pin, 0 unpin), a: archived (1 archive, 0 restore), f: firstKeptEntryId, b: tokensBefore, p: preview, l: a multi-line
 *   user message's first line }` (only the keys present).
 * Each chunk (one payload) decodes on its own, so a delta can be appended to earlier chunks.
 */
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import type { WireExtra, WireRow } from "@/lib/types/session-page";


/** The fields of a row an encoder reads (a SkeletonEntry, or its extra fields alone). */
type ExtraFields = Pick<SkeletonEntry, "targetId" | "labelValue" | "pinned" | "archived" | "firstKeptEntryId" | "tokensBefore" | "preview" | "firstLine">;

/** The wire `extra` of a row's extra fields, or undefined when it has none. */
export function wireExtra(s: ExtraFields): WireExtra | undefined {
  const extra: WireExtra = {};
  if (s.targetId !== undefined) extra.k = s.targetId;
  if (s.labelValue !== undefined) extra.v = s.labelValue;
  if (s.pinned !== undefined) extra.n = s.pinned ? 1 : 0;
  if (s.archived !== undefined) extra.a = s.archived ? 1 : 0;
  if (s.firstKeptEntryId !== undefined) extra.f = s.firstKeptEntryId;
  if (s.tokensBefore !== undefined) extra.b = s.tokensBefore;
  if (s.preview !== undefined) extra.p = s.preview;
  if (s.firstLine !== undefined) extra.l = s.firstLine;
  return Object.keys(extra).length > 0 ? extra : undefined;
}

/**
 * Encodes the rows of one chunk in order, from their fields (so a store of rows in another
 * form encodes without building SkeletonEntry objects): `parent` and `dt` are relative to the
 * previous row given to the same encoder.
 */
export class RowEncoder {
  private prevId: string | undefined;
  private prevT = 0;

  row(s: Omit<SkeletonEntry, keyof ExtraFields | "toolCallId">, extra: WireExtra | undefined): WireRow {
    const parent: string | 0 | 1 = s.parentId === null ? 0 : s.parentId === this.prevId ? 1 : s.parentId;
    const kind = s.type === "message" ? `.${s.role ?? ""}` : s.type;
    let dt: number | null = null;
    if (!Number.isNaN(s.t)) {
      dt = s.t - this.prevT;
      this.prevT = s.t;
    }
    this.prevId = s.id;
    return extra ? [s.id, parent, kind, s.text, s.tokens, s.flags, dt, extra] : [s.id, parent, kind, s.text, s.tokens, s.flags, dt];
  }
}

export function encodeRows(rows: readonly SkeletonEntry[]): WireRow[] {
  const encoder = new RowEncoder();
  return rows.map((s) => encoder.row(s, wireExtra(s)));
}

export function decodeRows(rows: readonly WireRow[]): SkeletonEntry[] {
  const out: SkeletonEntry[] = new Array(rows.length);
  let prevId: string | null = null;
  let prevT = 0;
  for (let i = 0; i < rows.length; i++) {
    const [id, parent, kind, text, tokens, flags, dt, extra] = rows[i]!;
    let t = Number.NaN;
    if (dt !== null) {
      t = prevT + dt;
      prevT = t;
    }
    const s: SkeletonEntry = {
      id,
      parentId: parent === 0 ? null : parent === 1 ? prevId : parent,
      type: kind.startsWith(".") ? "message" : kind,
      t,
      text,
      tokens,
      flags,
    };
    if (kind.startsWith(".")) s.role = kind.slice(1);
    if (extra) {
      if (extra.k !== undefined) s.targetId = extra.k;
      if (extra.v !== undefined) s.labelValue = extra.v;
      if (extra.n !== undefined) s.pinned = extra.n === 1;
      if (extra.a !== undefined) s.archived = extra.a === 1;
      if (extra.f !== undefined) s.firstKeptEntryId = extra.f;
      if (extra.b !== undefined) s.tokensBefore = extra.b;
      if (extra.p !== undefined) s.preview = extra.p;
      if (extra.l !== undefined) s.firstLine = extra.l;
    }
    out[i] = s;
    prevId = id;
  }
  return out;
}
