/**
 * LayeredMap: a Map of its own entries over a base map it never writes to, so a writer can
 * start from a large shared map in O(1) instead of copying it (SessionTree.fork).
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - Reads see the own entries first, then the base's; `delete` hides a base key (a tombstone)
 *   without touching the base. Writes go to the own layer only.
 * - Iteration yields the base's visible entries in the base's order, then the own entries in
 *   their order; a key set here moves to the own part (the "latest change last" order a Map
 *   gives after delete + set).
 * - The base may still grow (it is the shared tree's live map): keys it gains later show
 *   through unless this layer holds or deleted them. `size` is exact unless the base gained a
 *   key this layer already held; it is then an upper bound (enough for pathToRoot's cycle limit).
 */
export class LayeredMap<K, V> extends Map<K, V> {
  private readonly hidden = new Set<K>();
  /** Own keys that were also in the base when set here (counted once in `size`). */
  private shadowing = 0;

  constructor(private readonly base: ReadonlyMap<K, V>) {
    super();
  }

  override get(key: K): V | undefined {
    if (super.has(key)) return super.get(key);
    return this.hidden.size > 0 && this.hidden.has(key) ? undefined : this.base.get(key);
  }

  override has(key: K): boolean {
    if (super.has(key)) return true;
    return !(this.hidden.size > 0 && this.hidden.has(key)) && this.base.has(key);
  }

  override set(key: K, value: V): this {
    if (!super.has(key) && this.base.has(key)) {
      // Over the base's key (or its tombstone): counted once in `size`.
      this.hidden.delete(key);
      this.shadowing++;
    }
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    const had = this.has(key);
    if (super.delete(key) && this.base.has(key)) this.shadowing--;
    if (this.base.has(key)) this.hidden.add(key);
    return had;
  }

  override clear(): void {
    super.clear();
    this.shadowing = 0;
    for (const key of this.base.keys()) this.hidden.add(key);
  }

  override get size(): number {
    return this.base.size - this.hidden.size + super.size - this.shadowing;
  }

  override *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.base) {
      if (!super.has(key) && !this.hidden.has(key)) yield [key, value];
    }
    yield* super.entries();
  }

  override *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  override *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) fn.call(thisArg, value, key, this);
  }
}
