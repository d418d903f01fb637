/**
 * LatestBuilder (use-latest-build.ts): a large canvas build is never restarted to death by
 * inputs that change faster than it finishes, and the newest inputs always get built.
 */
import { describe, expect, it } from "vitest";
import { LatestBuilder } from "./use-latest-build";

/** A build whose completions the test controls, recording what it was asked to build. */
function controlled() {
  const calls: { inputs: number; signal: AbortSignal; finish: (r: string) => void; reject: (e: unknown) => void }[] = [];
  const build = (inputs: number, signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ inputs, signal, finish: resolve, reject });
    });
  return { calls, build };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** A builder over a controlled build that records what it delivers and what failed. */
function builder() {
  const { calls, build } = controlled();
  const delivered: string[] = [];
  const failures: unknown[] = [];
  const b = new LatestBuilder(build, (r) => delivered.push(r), (e) => failures.push(e));
  return { calls, delivered, failures, b };
}

describe("LatestBuilder", () => {
  it("lets the running build finish when inputs change, then builds only the newest", async () => {
    const { calls, delivered, b } = builder();
    b.request(1);
    await settle();
    b.request(2);
    b.request(3);
    b.request(4);
    await settle();
    expect(calls.map((c) => c.inputs)).toEqual([1]);
    expect(calls[0]!.signal.aborted).toBe(false);
    calls[0]!.finish("built 1");
    await settle();
    expect(delivered).toEqual(["built 1"]);
    expect(calls.map((c) => c.inputs)).toEqual([1, 4]);
    calls[1]!.finish("built 4");
    await settle();
    expect(delivered).toEqual(["built 1", "built 4"]);
    expect(calls).toHaveLength(2);
  });

  it("keeps making progress while requests keep arriving during every build", async () => {
    const { calls, delivered, b } = builder();
    b.request(0);
    for (let i = 1; i <= 5; i++) {
      await settle();
      b.request(i);
      calls.at(-1)!.finish(`built ${calls.at(-1)!.inputs}`);
    }
    await settle();
    calls.at(-1)!.finish(`built ${calls.at(-1)!.inputs}`);
    await settle();
    expect(delivered.length).toBeGreaterThanOrEqual(5);
    expect(delivered.at(-1)).toBe("built 5");
  });

  it("reports a failure and builds again on the next request", async () => {
    const { calls, delivered, failures, b } = builder();
    b.request(1);
    await settle();
    calls[0]!.reject(new Error("layout broke"));
    await settle();
    expect(failures).toHaveLength(1);
    b.request(2);
    await settle();
    calls[1]!.finish("built 2");
    await settle();
    expect(delivered).toEqual(["built 2"]);
  });

  it("a synchronous throw of the build counts as its failure", async () => {
    const failures: unknown[] = [];
    const b = new LatestBuilder<number, string>(
      () => {
        throw new Error("bad input");
      },
      () => undefined,
      (e) => failures.push(e),
    );
    b.request(1);
    await settle();
    expect(String(failures[0])).toContain("bad input");
  });

  it("dispose aborts the running build and nothing is delivered after it", async () => {
    const { calls, delivered, b } = builder();
    b.request(1);
    await settle();
    b.request(2);
    b.dispose();
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.finish("built 1");
    await settle();
    b.request(3);
    await settle();
    expect(delivered).toEqual([]);
    expect(calls).toHaveLength(1);
  });
});
