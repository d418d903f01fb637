import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit";

const limits = { perClient: 5, overall: 30, windowMs: 60_000 };

describe("sign-in rate limiter (sliding window)", () => {
  it("allows 5 failures a minute per client, then refuses with the seconds to wait", () => {
    const rl = createRateLimiter(limits);
    for (let i = 0; i < 5; i++) {
      expect(rl.check("1.2.3.4", i * 1000)).toEqual({ allowed: true });
      rl.recordFailure("1.2.3.4", i * 1000);
    }
    // The oldest failure (t=0) leaves the window at t=60s.
    expect(rl.check("1.2.3.4", 10_000)).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect(rl.check("1.2.3.4", 59_500)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(rl.check("1.2.3.4", 60_000)).toEqual({ allowed: true });
  });

  it("slides: one slot frees up as each failure ages out, not the whole window at once", () => {
    const rl = createRateLimiter(limits);
    for (let i = 0; i < 5; i++) rl.recordFailure("c", i * 10_000);
    expect(rl.check("c", 60_000).allowed).toBe(true);
    rl.recordFailure("c", 60_000);
    expect(rl.check("c", 60_001)).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  it("keeps clients apart and forgets a client's failures on success", () => {
    const rl = createRateLimiter(limits);
    for (let i = 0; i < 5; i++) rl.recordFailure("a", 0);
    expect(rl.check("a", 1).allowed).toBe(false);
    expect(rl.check("b", 1).allowed).toBe(true);
    rl.reset("a");
    expect(rl.check("a", 1).allowed).toBe(true);
  });

  it("has an overall ceiling, so forged client keys cannot guess without bound", () => {
    const rl = createRateLimiter(limits);
    for (let i = 0; i < 30; i++) rl.recordFailure(`forged-${i}`, 0);
    expect(rl.check("fresh", 1000)).toEqual({ allowed: false, retryAfterSeconds: 59 });
    expect(rl.check("fresh", 60_000).allowed).toBe(true);
  });

  it("tracks a bounded number of clients", () => {
    const rl = createRateLimiter({ ...limits, overall: 1e9, maxClients: 3 });
    for (const k of ["a", "b", "c", "d"]) for (let i = 0; i < 5; i++) rl.recordFailure(k, 0);
    expect(rl.check("a", 1).allowed).toBe(true); // the stalest was dropped
    expect(rl.check("d", 1).allowed).toBe(false);
  });
});
