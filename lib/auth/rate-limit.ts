/**
 * The sign-in limiter: exponential back-off per bucket, in memory. Pure: the clock is an argument.
 * Contract:
 * - `reserve` counts an attempt BEFORE the password is checked, so a burst of parallel
 *   attempts is limited as it arrives, not after its scrypt checks finish.
 * - A bucket's first `free` attempts run at once. From then on each attempt locks the bucket for
 *   `baseMs × 2^(attempts − free)`, capped at `maxMs`; a locked bucket refuses without checking
 *   anything and says after how many seconds to come back.
 * - `succeeded` gives the attempt back; with `forget` it clears the bucket (a device's own
 *   bucket: lib/auth/sign-in.ts). A bucket idle for `idleMs` is forgotten.
 * - There is no ceiling over all buckets: strangers can only fill their own (the owner's browser
 *   has its own, keyed by its device cookie).
 * - At most `maxBuckets` are kept; the least recently used go first.
 */

export type Reservation = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  reserve(key: string, now: number): Reservation;
  succeeded(key: string, options?: { forget?: boolean }): void;
}

export interface RateLimitOptions {
  free: number;
  baseMs: number;
  maxMs: number;
  idleMs: number;
  maxBuckets?: number;
}

interface Bucket {
  attempts: number;
  lockedUntil: number;
  lastAt: number;
}

export function createRateLimiter({ free, baseMs, maxMs, idleMs, maxBuckets = 10_000 }: RateLimitOptions): RateLimiter {
  const buckets = new Map<string, Bucket>();

  return {
    reserve(key, now) {
      let b = buckets.get(key);
      if (b && now - Math.max(b.lastAt, b.lockedUntil) >= idleMs) b = undefined;
      b ??= { attempts: 0, lockedUntil: 0, lastAt: now };
      buckets.delete(key);
      buckets.set(key, b); // re-inserted: Map order is least recently used first
      if (buckets.size > maxBuckets) buckets.delete(buckets.keys().next().value as string);
      if (now < b.lockedUntil) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((b.lockedUntil - now) / 1000)) };
      b.attempts += 1;
      b.lastAt = now;
      if (b.attempts >= free) b.lockedUntil = now + Math.min(maxMs, baseMs * 2 ** Math.min(30, b.attempts - free));
      return { allowed: true };
    },
    succeeded(key, { forget = false } = {}) {
      const b = buckets.get(key);
      if (!b) return;
      if (forget) {
        buckets.delete(key);
        return;
      }
      b.attempts = Math.max(0, b.attempts - 1);
      if (b.attempts < free) b.lockedUntil = 0;
    },
  };
}
