/**
 * Running a model-supplied regular expression (grep's pattern, find's glob compiled by
 * picomatch) off the main thread, under a wall-clock budget.
 *
 * Why: JavaScript regular expressions backtrack, so a pattern like `(a+)+$` on a long line, or a
 * glob with many `*`, can run for minutes. On the main thread that stalls every other request
 * of the server; `vm`'s timeout only limits how long the stall lasts. Here the matching runs in
 * a `worker_threads` worker, and a worker still busy when the budget runs out is terminated
 * (V8 stops it wherever it is). The main thread only waits on a message, so it stays free.
 *
 * Contract:
 * - One RegexWorker per tool call: one budget (`budgetMs`, counted from construction) shared by
 *   all its calls, one worker started on the first call and reused, `close()` at the end.
 * - `matchLines` / `testAll` resolve with the answer, or "timeout" once the budget is spent (the
 *   worker is then terminated and every later call also answers "timeout").
 * - `signal` aborting terminates the worker and rejects with the signal's reason.
 * - Semantics are the engine's own: the worker compiles the same `source` and `flags` with
 *   `new RegExp`, so results are exactly those of the main thread's RegExp.
 * The worker's code is an inline CommonJS script (`eval: true`) so that no bundler has to find a
 * separate worker file.
 */
import { Worker } from "node:worker_threads";

export interface RegexSpec {
  source: string;
  flags: string;
  /** For globs: an input equal to the glob itself matches (as picomatch.test does). */
  glob?: string;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const re = new RegExp(workerData.source, workerData.flags);
const glob = workerData.glob;
parentPort.on("message", (m) => {
  const out = [];
  if (m.kind === "lines") {
    const lines = m.text.split(/\\r?\\n/);
    for (let i = 0; i < lines.length && out.length < m.max; i++) if (re.test(lines[i])) out.push(i);
  } else {
    for (const s of m.items) out.push(s !== "" && (s === glob || re.test(s)));
  }
  parentPort.postMessage({ id: m.id, out });
});
`;

/** Heap of one worker: a 10 MB file split into lines fits many times over. */
const WORKER_HEAP_MB = 256;

type Request = { kind: "lines"; text: string; max: number } | { kind: "strings"; items: string[] };

export class RegexWorker {
  private worker: Worker | undefined;
  private expired = false;
  private seq = 0;
  private readonly deadline: number;

  constructor(
    private readonly spec: RegexSpec,
    budgetMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.deadline = Date.now() + budgetMs;
  }

  /** 0-based indices of the lines of `text` (split on \r?\n) that match, at most `max`. */
  matchLines(text: string, max: number): Promise<number[] | "timeout"> {
    return this.call<number[]>({ kind: "lines", text, max });
  }

  /** Whether each of `items` matches, in order. */
  testAll(items: string[]): Promise<boolean[] | "timeout"> {
    return this.call<boolean[]>({ kind: "strings", items });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: this.spec.source, flags: this.spec.flags, glob: this.spec.glob },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    w.unref();
    this.worker = w;
    return w;
  }

  private call<T>(request: Request): Promise<T | "timeout"> {
    this.signal?.throwIfAborted();
    const remaining = this.deadline - Date.now();
    if (this.expired || remaining <= 0) {
      this.expired = true;
      void this.close();
      return Promise.resolve("timeout");
    }
    const w = this.start();
    const id = ++this.seq;
    return new Promise<T | "timeout">((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        w.off("message", onMessage);
        w.off("error", onError);
        w.off("exit", onExit);
        this.signal?.removeEventListener("abort", onAbort);
      };
      const stop = () => {
        cleanup();
        if (this.worker === w) this.worker = undefined;
        void w.terminate();
      };
      const timer = setTimeout(() => {
        this.expired = true;
        stop();
        resolve("timeout");
      }, remaining);
      const onMessage = (m: { id: number; out: T }) => {
        if (m.id !== id) return;
        cleanup();
        resolve(m.out);
      };
      const onError = (error: Error) => {
        stop();
        reject(error);
      };
      const onExit = (code: number) => {
        stop();
        reject(new Error(`the matching worker stopped unexpectedly (exit code ${code})`));
      };
      const onAbort = () => {
        stop();
        reject(this.signal?.reason);
      };
      w.on("message", onMessage);
      w.on("error", onError);
      w.on("exit", onExit);
      this.signal?.addEventListener("abort", onAbort, { once: true });
      w.postMessage({ ...request, id });
    });
  }
}

/** True for the error a worker gives when it ran out of its heap. */
export function isWorkerOutOfMemory(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY";
}
