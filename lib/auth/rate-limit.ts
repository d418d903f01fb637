/**
 * Sliding-window limiter for failed sign-ins, in memory.
 * Contract: a client (keyed by IP) may fail `perClient` times within `windowMs`; after that
 * `check` refuses until its oldest failure leaves the window and says after how many seconds.
 * A ceiling over all clients (`overall`) bounds guessing even when the client key is forged
 * (X-Forwarded-For is client-controlled when no reverse proxy sets it). Refused attempts are
 * not checked at all, so they reveal nothing. Pure: the clock is an argument.
 */

export type LimitCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  check(key: string, now: number): LimitCheck;
  recordFailure(key: string, now: number): void;
  /** A successful sign-in forgets the client's failures. */
  reset(key: string): void;
}

export interface RateLimitOptions {
  perClient: number;
  overall: number;
  windowMs: number;
  /** At most this many clients are tracked; the stalest are dropped first. */
  maxClients?: number;
}

const OVERALL = "\u0000all";

export function createRateLimiter({ perClient, overall, windowMs, maxClients = 10_000 }: RateLimitOptions): RateLimiter {
  const failures = new Map<string, number[]>();

  const recent = (key: string, now: number): number[] => {
    const list = failures.get(key);
    if (!list) return [];
    while (list.length > 0 && list[0]! <= now - windowMs) list.shift();
    if (list.length === 0) failures.delete(key);
    return list;
  };

  const refusal = (list: number[], limit: number, now: number): LimitCheck | undefined => {
    if (list.length < limit) return undefined;
    // The attempt is allowed again once enough failures have left the window.
    const freedAt = list[list.length - limit]! + windowMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now) / 1000)) };
  };

  return {
    check(key, now) {
      return refusal(recent(key, now), perClient, now) ?? refusal(recent(OVERALL, now), overall, now) ?? { allowed: true };
    },
    recordFailure(key, now) {
      for (const k of [key, OVERALL]) {
        const list = recent(k, now);
        list.push(now);
        failures.delete(k);
        failures.set(k, list); // re-inserted: Map order is least recently failed first
      }
      if (failures.size > maxClients + 1) {
        for (const stalest of failures.keys()) {
          if (stalest === OVERALL) continue;
          failures.delete(stalest);
          break;
        }
      }
    },
    reset(key) {
      failures.delete(key);
    },
  };
}
