/**
 * Stepwise passes (stepwise.ts): run at once or in slices, they give the same result; a sliced
 * run gives the event loop back between slices and stops when aborted.
 */
import { describe, expect, it } from "vitest";
import { CHECK_EVERY, nextTask, runSliced, runSteps, type Steps, tick } from "@/lib/session/stepwise";

function* sumTo(n: number): Steps<number> {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (tick(i)) yield;
    sum += i;
  }
  return sum;
}

describe("stepwise passes", () => {
  it("yields once per CHECK_EVERY iterations and returns the pass's result", () => {
    let yields = 0;
    const steps = sumTo(CHECK_EVERY * 3 + 5);
    let r = steps.next();
    while (!r.done) {
      yields++;
      r = steps.next();
    }
    expect(yields).toBe(3);
    expect(r.value).toBe(((CHECK_EVERY * 3 + 5) * (CHECK_EVERY * 3 + 4)) / 2);
    expect(runSteps(sumTo(10))).toBe(45);
  });

  it("a sliced run lets other tasks run between its slices", async () => {
    let timerRan = false;
    setTimeout(() => {
      timerRan = true;
    }, 0);
    let slices = 0;
    let sawTimer = false;
    function* slow(): Steps<string> {
      for (let i = 0; i < 60; i++) {
        const end = performance.now() + 2;
        while (performance.now() < end) {
          // busy: one step of about 2 ms
        }
        if (timerRan) sawTimer = true;
        yield;
      }
      return "done";
    }
    const result = await runSliced(slow(), { budgetMs: 5, onSlice: () => slices++ });
    expect(result).toBe("done");
    expect(slices).toBeGreaterThan(10);
    expect(sawTimer).toBe(true);
  });

  it("stops at the next slice once aborted, with the abort reason", async () => {
    const ac = new AbortController();
    let steps = 0;
    function* endless(): Steps<never> {
      for (;;) {
        steps++;
        if (steps === 5) ac.abort(new Error("the inputs changed"));
        const end = performance.now() + 1;
        while (performance.now() < end) {
          // busy
        }
        yield;
      }
    }
    await expect(runSliced(endless(), { budgetMs: 2, signal: ac.signal })).rejects.toThrow("the inputs changed");
    expect(steps).toBeLessThan(10);
  });
});

describe("nextTask", () => {
  it("resumes every waiter, in the order they asked, through one shared channel", async () => {
    const order: number[] = [];
    await Promise.all(Array.from({ length: 50 }, (_, i) => nextTask().then(() => order.push(i))));
    expect(order).toEqual(Array.from({ length: 50 }, (_, i) => i));
    for (let i = 0; i < 2000; i++) await nextTask();
  });
});
