/**
 * The resolved skeleton of a growing entry list in a compact form, for a server that keeps it
 * while a session is cached (docs/benchmarks.md: a cached 100k-entry session within ~1.5× its JSONL).
 * Per row only what costs a pass over the entry's contents is kept, packed: timestamp, tokens
 * and flags in typed arrays, the row text in PackedTexts, the rare extra fields (labels, pins,
 * compactions, summaries, a user message's first line) in a sparse map. id, parentId, type, role
 * and toolCallId are read off the entry again when a row is produced (cheap).
 *
 * Contract:
 * - `slice(from, to)` equals `resolveSkeleton(entries).slice(from, to)` (skeleton-resolve.ts) for
 *   the entries as of the last `sync()`. The table reads `entries` (never mutates them), which
 *   may only grow by appends; `sync()` adds the rows of the appended entries, and resolves
 *   toolResult texts as resolveSkeleton does over all entries: the LAST call with an id names
 *   every result with it. An appended call whose id an earlier call or an unanswered result
 *   already had therefore changes earlier rows' texts: those rows are found by a scan of the
 *   result entries' call ids (no contents are read) and their texts replaced (a view `upTo` an
 *   earlier count shows the new texts too, as resolving that count again after it would not:
 *   only for call ids used twice, or answered before they were called).
 * - Rows are produced on demand: a slice is new objects every time.
 * - `bytes()` estimates the memory held (ArrayBuffers included), for the read model's charge.
 */
import { CallIndex } from "@/lib/session-view/call-index";
import { ownCopy, PackedTexts, stringBytes } from "@/lib/session-view/packed-texts";
import type { RowSource } from "@/lib/session-view/skeleton-stream";
import { RowEncoder, wireExtra } from "@/lib/session-view/skeleton-wire";
import type { WireRow } from "@/lib/types/session-page";
import { parentIdOf, roleOf, type SkeletonEntry, skeletonFacts, toolCallIdOf } from "@/lib/session-view/tree-skeleton";
import { toolCallIdAt, toolCallTexts } from "@/lib/session-view/skeleton-resolve";
import type { SessionEntry } from "@/lib/session/types";

type Extra = Pick<SkeletonEntry, "targetId" | "labelValue" | "pinned" | "archived" | "firstKeptEntryId" | "tokensBefore" | "preview" | "firstLine">;
const EXTRA_KEYS = ["firstLine", "targetId", "labelValue", "pinned", "archived", "firstKeptEntryId", "tokensBefore", "preview"] as const;
/** Heap per kept extra (Map slot, object, string headers) and per unanswered call id (Set slot), besides characters (measured). */
const EXTRA_BYTES = 110;
const CALL_BYTES = 40;
/** A bit of the flags column above every FLAG bit (a test holds FLAG below it): the row has an entry in `extras`. */
const HAS_EXTRA = 0x80;

function grown<A extends Float64Array | Uint32Array | Uint8Array>(array: A, need: number, make: (size: number) => A): A {
  if (need <= array.length) return array;
  const next = make(Math.max(need, Math.ceil(array.length * 1.125) + 64));
  next.set(array);
  return next;
}

function hasExtra(s: SkeletonEntry): boolean {
  return (
    s.firstLine !== undefined ||
    s.targetId !== undefined ||
    s.labelValue !== undefined ||
    s.pinned !== undefined ||
    s.firstKeptEntryId !== undefined ||
    s.tokensBefore !== undefined ||
    s.preview !== undefined
  );
}

function lastCallText(entry: SessionEntry, id: string): string | undefined {
  let text: string | undefined;
  for (const [callId, t] of toolCallTexts(entry)) if (callId === id) text = t;
  return text;
}

export class SkeletonTable implements RowSource {
  private t = new Float64Array(0);
  /** Whole token counts (all there are in practice); any other number turns it into a Float64Array. */
  private tokens: Uint32Array | Float64Array = new Uint32Array(0);
  private flags = new Uint8Array(0);
  private readonly texts = new PackedTexts();
  private readonly extras = new Map<number, Extra>();
  /** The characters of the extras' strings (stringBytes). */
  private extraBytes = 0;
  /** Call id → index of the last entry calling it. */
  private readonly calls = new CallIndex((entry, position) => toolCallIdAt(this.entries[entry]!, position));
  /** Call ids of results no call answered (yet). */
  private readonly unanswered = new Set<string>();

  private constructor(private readonly entries: readonly SessionEntry[]) {}

  /** The table of `entries` now (grow it with `sync()` after appends to the same list). */
  static of(entries: readonly SessionEntry[]): SkeletonTable {
    const table = new SkeletonTable(entries);
    table.sync();
    table.trim();
    return table;
  }

  get length(): number {
    return this.texts.length;
  }

  /** Adds the rows of the entries appended since the last sync. */
  sync(): void {
    const from = this.length;
    const to = this.entries.length;
    if (to <= from) return;
    const fresh = new Map<string, string>();
    const changed = new Set<string>();
    for (let i = from; i < to; i++) {
      let position = 0;
      for (const [id, text] of toolCallTexts(this.entries[i]!)) {
        const before = this.calls.get(id);
        if ((before !== undefined && before < from) || this.unanswered.has(id)) changed.add(id);
        this.calls.set(id, i, position++);
        this.unanswered.delete(id);
        fresh.set(id, text);
      }
    }
    this.t = grown(this.t, to, (n) => new Float64Array(n));
    this.tokens = grown(this.tokens, to, (n) => (this.tokens instanceof Uint32Array ? new Uint32Array(n) : new Float64Array(n)));
    this.flags = grown(this.flags, to, (n) => new Uint8Array(n));
    const callText = (id: string) => fresh.get(id) ?? this.olderCallText(id);
    for (let i = from; i < to; i++) this.add(i, skeletonFacts(this.entries[i]!), callText);
    if (changed.size > 0) this.reresolve(from, changed, callText);
  }

  slice(from: number, to: number): SkeletonEntry[] {
    const end = Math.min(to, this.length);
    const texts = this.texts.range(from, end);
    const out: SkeletonEntry[] = new Array(texts.length);
    for (let i = from; i < end; i++) out[i - from] = this.row(i, texts[i - from]!);
    return out;
  }

  /** `encodeRows(this.slice(from, to))` (skeleton-wire.ts), without building the rows. */
  encode(from: number, to: number): WireRow[] {
    const end = Math.min(to, this.length);
    const texts = this.texts.range(from, end);
    const encoder = new RowEncoder();
    const out: WireRow[] = new Array(texts.length);
    for (let i = from; i < end; i++) {
      const entry = this.entries[i]!;
      const flags = this.flags[i]!;
      const head = { id: entry.id, parentId: parentIdOf(entry), type: entry.type, role: roleOf(entry), t: this.t[i]!, text: texts[i - from]!, tokens: this.tokens[i]!, flags: flags & ~HAS_EXTRA };
      out[i - from] = encoder.row(head, flags & HAS_EXTRA ? wireExtra(this.extras.get(i)!) : undefined);
    }
    return out;
  }

  /** The rows up to `count` (this table's length when it was read), whatever is appended later. */
  upTo(count: number): RowSource {
    return this.range(0, count);
  }

  /** Rows `start` to `end` (end excluded), indexed from 0 at `start`, whatever is appended later. */
  range(start: number, end: number): RowSource {
    const length = Math.max(0, end - start);
    const at = (i: number) => start + Math.min(i, length);
    return { length, slice: (from, to) => this.slice(at(from), at(to)), encode: (from, to) => this.encode(at(from), at(to)) };
  }

  /** `SkeletonEntry.flags` of row `i`. */
  flagsAt(i: number): number {
    return this.flags[i]! & ~HAS_EXTRA;
  }

  bytes(): number {
    const columns = this.t.byteLength + this.tokens.byteLength + this.flags.byteLength;
    const maps = this.extras.size * EXTRA_BYTES + this.extraBytes + this.calls.bytes() + this.unanswered.size * CALL_BYTES;
    return columns + this.texts.bytes() + maps;
  }

  private add(i: number, s: SkeletonEntry, callText: (id: string) => string | undefined): void {
    this.t[i] = s.t;
    if (this.tokens instanceof Uint32Array && s.tokens >>> 0 !== s.tokens) this.tokens = Float64Array.from(this.tokens);
    this.tokens[i] = s.tokens;
    this.flags[i] = s.flags;
    let text = s.text;
    if (s.toolCallId !== undefined) {
      const resolved = callText(s.toolCallId);
      if (resolved === undefined) this.unanswered.add(s.toolCallId);
      else text = resolved;
    }
    this.texts.push(text);
    if (!hasExtra(s)) return;
    let extra: Extra | undefined;
    for (const key of EXTRA_KEYS) {
      const value = s[key];
      if (value === undefined) continue;
      extra ??= {};
      (extra as Record<string, unknown>)[key] = typeof value === "string" ? ownCopy(value) : value;
      if (typeof value === "string") this.extraBytes += stringBytes(value);
    }
    if (extra) {
      this.extras.set(i, extra);
      this.flags[i] = s.flags | HAS_EXTRA;
    }
  }

  /** New texts for the rows before `from` that answer a call id whose text changed. */
  private reresolve(from: number, changed: ReadonlySet<string>, callText: (id: string) => string | undefined): void {
    for (let i = 0; i < from; i++) {
      const id = toolCallIdOf(this.entries[i]!);
      if (id === undefined || !changed.has(id)) continue;
      const text = callText(id);
      if (text !== undefined) this.texts.set(i, text);
    }
  }

  private olderCallText(id: string): string | undefined {
    const at = this.calls.get(id);
    return at === undefined ? undefined : lastCallText(this.entries[at]!, id);
  }

  private trim(): void {
    this.texts.trim();
    this.t = this.t.slice(0, this.length);
    this.tokens = this.tokens.slice(0, this.length);
    this.flags = this.flags.slice(0, this.length);
  }

  private row(i: number, text: string): SkeletonEntry {
    const entry = this.entries[i]!;
    const flags = this.flags[i]!;
    const s: SkeletonEntry = { id: entry.id, parentId: parentIdOf(entry), type: entry.type, t: this.t[i]!, text, tokens: this.tokens[i]!, flags: flags & ~HAS_EXTRA };
    const role = roleOf(entry);
    if (role !== undefined) s.role = role;
    if (flags & HAS_EXTRA) Object.assign(s, this.extras.get(i));
    const toolCallId = toolCallIdOf(entry);
    if (toolCallId !== undefined) s.toolCallId = toolCallId;
    return s;
  }
}
