import "server-only";
/**
 * A least-recently-used map bounded by the sum of its values' estimated sizes.
 *
 * Contract: `get` marks the key as most recently used; `set` replaces the key's value and then
 * evicts the least recently used keys until the total fits `maxBytes`. A value larger than
 * `maxBytes` on its own is not kept (set returns false), so one huge session cannot flush the
 * whole cache and then still overflow it. O(1) per operation (a Map keeps insertion order).
 */

export interface Sized {
  readonly bytes: number;
}

export class ByteLru<V extends Sized> {
  private readonly map = new Map<string, V>();
  private total = 0;

  constructor(private maxBytes: number) {}

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.total;
  }

  get limit(): number {
    return this.maxBytes;
  }

  /** Changes the bound (evicting at once if needed). */
  resize(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.evict();
  }

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** The value without touching its recency (for checks that must not count as a use). */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): boolean {
    this.delete(key);
    if (value.bytes > this.maxBytes) return false;
    this.map.set(key, value);
    this.total += value.bytes;
    this.evict();
    return this.map.has(key);
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.map.delete(key);
    this.total -= old.bytes;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  private evict(): void {
    for (const [key, value] of this.map) {
      if (this.total <= this.maxBytes) break;
      this.map.delete(key);
      this.total -= value.bytes;
    }
  }
}
