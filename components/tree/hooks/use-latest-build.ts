"use client";
/**
 * Runs a long asynchronous build for the latest inputs without starving it.
 *
 * Contract (LatestBuilder; useLatestBuild is its React binding):
 * - Every requested `inputs` value is eventually built, or superseded by a newer request that
 *   is built.
 * - A build in progress is NOT aborted by a new request: on a large session a build takes longer
 *   than the gap between two input changes can be (a refetch, a label, a search), and aborting
 *   would restart it forever. When it finishes its result is delivered, and if requests came
 *   meanwhile ONE build of the newest follows (the ones in between are skipped).
 * - A failure is reported (`fail`) and the next request builds again.
 * - `dispose` aborts the build in progress; nothing is delivered or reported after it.
 */
import { useEffect, useRef } from "react";

export class LatestBuilder<I, R> {
  private readonly controller = new AbortController();
  private running = false;
  private pending: { inputs: I } | null = null;

  constructor(
    private readonly build: (inputs: I, signal: AbortSignal) => Promise<R>,
    private readonly deliver: (result: R) => void,
    private readonly fail: (error: unknown) => void,
  ) {}

  request(inputs: I): void {
    if (this.controller.signal.aborted) return;
    if (this.running) this.pending = { inputs };
    else this.start(inputs);
  }

  dispose(): void {
    this.pending = null;
    this.controller.abort();
  }

  private start(inputs: I): void {
    const { signal } = this.controller;
    this.running = true;
    // A synchronous throw of `build` counts as its failure.
    Promise.resolve()
      .then(() => this.build(inputs, signal))
      .then(
        (result) => {
          if (signal.aborted) return;
          this.running = false;
          this.deliver(result);
          this.next();
        },
        (error: unknown) => {
          if (signal.aborted) return;
          this.running = false;
          this.fail(error);
          this.next();
        },
      );
  }

  private next(): void {
    const queued = this.pending;
    this.pending = null;
    if (queued && !this.running) this.start(queued.inputs);
  }
}

/** Builds `inputs` (compared by identity: memoise it) whenever it changes while `enabled`. */
export function useLatestBuild<I, R>(
  enabled: boolean,
  inputs: I,
  build: (inputs: I, signal: AbortSignal) => Promise<R>,
  deliver: (result: R) => void,
  fail: (error: unknown) => void,
): void {
  const latest = useRef({ build, deliver, fail });
  latest.current = { build, deliver, fail };
  const builder = useRef<LatestBuilder<I, R> | null>(null);

  useEffect(() => {
    const b = new LatestBuilder<I, R>(
      (i, signal) => latest.current.build(i, signal),
      (r) => latest.current.deliver(r),
      (e) => latest.current.fail(e),
    );
    builder.current = b;
    return () => b.dispose();
  }, []);

  useEffect(() => {
    if (enabled) builder.current?.request(inputs);
  }, [enabled, inputs]);
}
