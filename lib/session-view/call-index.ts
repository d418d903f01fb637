/**
 * Which entry last made each tool call, for a server that keeps it per cached session
 * (skeleton-table.ts): an open-addressing table of (id hash, entry index, call position) in
 * typed arrays, 10 bytes a slot, where a Map of call id → index costs ~40 bytes a call. The ids
 * are not stored: a slot whose hash matches reads its id back from its entry,
 * `callIdAt(entry, position)`, which must be the same every time (entries are never mutated).
 *
 * Contract: after `set(id, entry, position)` for every call in entry order, `get(id)` is the
 * index of the last entry calling `id` (resolveSkeleton's "a later duplicate call id wins"), or
 * undefined.
 */

/** FNV-1a over the id's UTF-16 code units. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Slots for `count` ids at a load of at most 3/4. */
function capacityFor(count: number): number {
  let capacity = 16;
  while (capacity * 3 < count * 4) capacity *= 2;
  return capacity;
}

const FREE = -1;
/** Call positions stored in a slot; calls further into an entry go to a Map (never in practice). */
const MAX_POSITION = 0xffff;

export class CallIndex {
  private hashes: Uint32Array;
  private entries: Int32Array;
  private positions: Uint16Array;
  private used = 0;
  private readonly overflow = new Map<string, number>();

  /** `callIdAt(i, p)` = the id of call `p` (0-based) of entry `i`. */
  constructor(
    private readonly callIdAt: (entry: number, position: number) => string | undefined,
    expected = 0,
  ) {
    this.hashes = new Uint32Array(capacityFor(expected));
    this.entries = new Int32Array(this.hashes.length).fill(FREE);
    this.positions = new Uint16Array(this.hashes.length);
  }

  get size(): number {
    return this.used + this.overflow.size;
  }

  get(id: string): number | undefined {
    const slot = this.slotOf(id, hashOf(id));
    const inTable = this.entries[slot] === FREE ? undefined : this.entries[slot]!;
    const far = this.overflow.get(id);
    return far === undefined ? inTable : inTable === undefined ? far : Math.max(far, inTable);
  }

  /** Entry `entry` calls `id` at `position` of its calls (entries given in order: the last stays). */
  set(id: string, entry: number, position: number): void {
    if (position > MAX_POSITION) {
      this.overflow.set(id, entry);
      return;
    }
    if ((this.used + 1) * 4 > this.entries.length * 3) this.grow();
    const hash = hashOf(id);
    const slot = this.slotOf(id, hash);
    if (this.entries[slot] === FREE) this.used++;
    this.hashes[slot] = hash;
    this.entries[slot] = entry;
    this.positions[slot] = position;
  }

  bytes(): number {
    return this.hashes.byteLength + this.entries.byteLength + this.positions.byteLength + this.overflow.size * 40;
  }

  /** The slot holding `id`, or the free slot where it would go. */
  private slotOf(id: string, hash: number): number {
    const mask = this.entries.length - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const entry = this.entries[s]!;
      if (entry === FREE || (this.hashes[s] === hash && this.callIdAt(entry, this.positions[s]!) === id)) return s;
    }
  }

  private grow(): void {
    const { hashes, entries, positions } = this;
    this.hashes = new Uint32Array(hashes.length * 2);
    this.entries = new Int32Array(this.hashes.length).fill(FREE);
    this.positions = new Uint16Array(this.hashes.length);
    const mask = this.entries.length - 1;
    for (let i = 0; i < entries.length; i++) {
      if (entries[i] === FREE) continue;
      let s = hashes[i]! & mask;
      while (this.entries[s] !== FREE) s = (s + 1) & mask;
      this.hashes[s] = hashes[i]!;
      this.entries[s] = entries[i]!;
      this.positions[s] = positions[i]!;
    }
  }
}
