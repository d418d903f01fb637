/**
 * Two files of a folder synced at once (sync-folders.ts), their events kept in file order.
 *
 * Why: a small file's import is a dozen statements one after the other on its own connection;
 * Node (reading, mapping, encoding) and the server (storing, indexing, the commit's flush) take
 * turns, each waiting for the other (bench/sync-profile.ts: both busy in 1–3 % of a first
 * sync's samples). With two files in flight, one file's parse runs while the other's statements
 * do. Each file's sync itself is unchanged: one transaction per import, tracked when committed.
 *
 * Contract (FileLanes):
 * - `start(alone, sync, again)` waits for a lane, then starts `sync` and returns: at most `width`
 *   syncs run at once, and one started `alone` (a large file: its memory) runs with no other.
 *   Syncs start in the order of the `start` calls.
 * - `sync(ranBeside)` resolves true when its file is done, false when it must be synced again
 *   alone (a failure that another file's sync may have caused: the same session written by both,
 *   a deadlock; `ranBeside()` tells whether another ran at the same time). Then `again` runs,
 *   with no other sync, before any later file starts.
 * - A sync that throws (an abort) stops further starts; `drain()` waits for every sync and retry,
 *   then throws the first such error; `settle()` only waits.
 *
 * Contract (InOrder): `emit(index, e)` passes a file's events on in file order. Events of a file
 * after the earliest one not `done` wait (of its progress events, the latest only) until every
 * file before it is done. `flushDone()` (a stopped sync) passes on what every finished file holds.
 */

interface Running {
  /** Another sync ran beside this one at some point. */
  company: boolean;
}

export class FileLanes {
  private readonly running = new Map<Promise<void>, Running>();
  private aloneNow = false;
  private readonly retries: (() => Promise<void>)[] = [];
  private failure: { error: unknown } | undefined;

  constructor(private readonly width: number) {}

  async start(alone: boolean, sync: (ranBeside: () => boolean) => Promise<boolean>, again: () => Promise<void>): Promise<void> {
    for (;;) {
      await this.retryWaiting();
      if (this.running.size === 0 || (!alone && !this.aloneNow && this.running.size < this.width)) break;
      await Promise.race(this.running.keys());
    }
    this.throwIfFailed();
    const me: Running = { company: this.running.size > 0 };
    for (const other of this.running.values()) other.company = true;
    if (alone) this.aloneNow = true;
    const run = (async () => {
      try {
        if (!(await sync(() => me.company))) this.retries.push(again);
      } catch (error) {
        this.failure ??= { error };
      } finally {
        if (alone) this.aloneNow = false;
      }
    })();
    const tracked: Promise<void> = run.finally(() => this.running.delete(tracked));
    this.running.set(tracked, me);
  }

  /** Waits for every sync and retry; then throws the first error a sync threw. */
  async drain(): Promise<void> {
    await this.settle();
    this.throwIfFailed();
  }

  /** Waits for every sync and retry, whatever happened. */
  async settle(): Promise<void> {
    while (this.running.size > 0 || this.retries.length > 0) {
      await Promise.all(this.running.keys());
      await this.retryWaiting();
    }
  }

  /** Once nothing runs, the files waiting to be synced again, one after the other. */
  private async retryWaiting(): Promise<void> {
    while (this.retries.length > 0) {
      await Promise.all(this.running.keys());
      const again = this.retries.shift()!;
      if (this.failure) continue;
      try {
        await again();
      } catch (error) {
        this.failure ??= { error };
      }
    }
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}

export class InOrder<E> {
  private next = 0;
  private readonly held = new Map<number, { events: E[]; done: boolean }>();

  constructor(
    private readonly pass: (e: E) => void,
    private readonly isProgress: (e: E) => boolean,
  ) {}

  emit(index: number, e: E): void {
    if (index === this.next) {
      this.pass(e);
      return;
    }
    const { events } = this.slot(index);
    if (this.isProgress(e) && events.length > 0 && this.isProgress(events.at(-1)!)) events[events.length - 1] = e;
    else events.push(e);
  }

  /** The file at `index` has emitted its last event. */
  done(index: number): void {
    this.slot(index).done = true;
    for (let h = this.held.get(this.next); h; h = this.held.get(this.next)) {
      // The earliest file not passed on yet: what it held goes now, and its next events at once.
      for (const e of h.events) this.pass(e);
      h.events = [];
      if (!h.done) return;
      this.held.delete(this.next);
      this.next += 1;
    }
  }

  /**
   * After a sync was stopped (an abort): the events of every file that finished, in file order,
   * though a file before it did not (its import rolled back; it has no event to wait for).
   */
  flushDone(): void {
    for (const index of [...this.held.keys()].sort((a, b) => a - b)) {
      const h = this.held.get(index)!;
      this.held.delete(index);
      if (h.done) for (const e of h.events) this.pass(e);
    }
  }

  private slot(index: number): { events: E[]; done: boolean } {
    let h = this.held.get(index);
    if (!h) {
      h = { events: [], done: false };
      this.held.set(index, h);
    }
    return h;
  }
}
