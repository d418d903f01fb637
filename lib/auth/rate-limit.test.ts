import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit";
import { LOGIN_LIMITS } from "./state";

const limits = { free: 5, baseMs: 30_000, maxMs: 3_600_000, idleMs: 3_600_000 };

describe("sign-in limiter (reserve before the check, exponential back-off per bucket)", () => {
  it("lets 5 attempts run, then locks for 30 s, 60 s, 120 s … each refused attempt saying how long", () => {
    const rl = createRateLimiter(limits);
    for (let i = 0; i < 5; i++) expect(rl.reserve("a", 0)).toEqual({ allowed: true });
    expect(rl.reserve("a", 1_000)).toEqual({ allowed: false, retryAfterSeconds: 29 });
    expect(rl.reserve("a", 30_000)).toEqual({ allowed: true }); // the 6th attempt …
    expect(rl.reserve("a", 30_001)).toEqual({ allowed: false, retryAfterSeconds: 60 }); // … doubles the wait
    expect(rl.reserve("a", 90_000)).toEqual({ allowed: true });
    expect(rl.reserve("a", 90_000)).toEqual({ allowed: false, retryAfterSeconds: 120 });
  });

  it("counts attempts as they arrive: a parallel burst gets only 5 through", () => {
    const rl = createRateLimiter(limits);
    const results = Array.from({ length: 60 }, () => rl.reserve("burst", 0));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it("caps the wait, and forgets a bucket left alone long enough", () => {
    const rl = createRateLimiter(limits);
    let t = 0;
    for (let i = 0; i < 40; i++) {
      const r = rl.reserve("a", t);
      if (!r.allowed) {
        expect(r.retryAfterSeconds).toBeLessThanOrEqual(3600);
        t += r.retryAfterSeconds * 1000;
      }
    }
    expect(rl.reserve("a", t + 3_600_000 * 2)).toEqual({ allowed: true });
  });

  it("has no ceiling over all buckets: one bucket's lock never touches another", () => {
    const rl = createRateLimiter(limits);
    for (let i = 0; i < 1000; i++) rl.reserve(`forged-${i % 50}`, 0);
    for (let i = 0; i < 100; i++) rl.reserve("stranger", 0);
    expect(rl.reserve("device:owner", 0)).toEqual({ allowed: true });
  });

  it("gives a successful attempt back; `forget` clears the bucket", () => {
    const rl = createRateLimiter(limits);
    for (let i = 0; i < 5; i++) rl.reserve("a", 0);
    rl.succeeded("a");
    expect(rl.reserve("a", 1)).toEqual({ allowed: true });
    expect(rl.reserve("a", 1).allowed).toBe(false);
    rl.succeeded("a", { forget: true });
    for (let i = 0; i < 5; i++) expect(rl.reserve("a", 2)).toEqual({ allowed: true });
  });

  it("tracks a bounded number of buckets, least recently used dropped first", () => {
    const rl = createRateLimiter({ ...limits, maxBuckets: 3 });
    for (const k of ["a", "b", "c", "d"]) for (let i = 0; i < 6; i++) rl.reserve(k, 0);
    expect(rl.reserve("a", 1).allowed).toBe(true); // dropped, so it starts over
    expect(rl.reserve("d", 1).allowed).toBe(false);
  });

  it("is what sign-in uses", () => {
    expect(LOGIN_LIMITS).toEqual(limits);
  });
});
