/** Two files synced at once, their events in file order (file-lanes.ts). */
import { describe, expect, it } from "vitest";
import { FileLanes, InOrder } from "./file-lanes";

/** A promise resolved from outside. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open: () => open() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("FileLanes", () => {
  it("runs two syncs at once, a third only when one is done, and a large file alone", async () => {
    const lanes = new FileLanes(2);
    const log: string[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const job = (i: number) => async () => {
      log.push(`start ${i}`);
      await gates[i]!.promise;
      log.push(`end ${i}`);
      return true;
    };
    await lanes.start(false, job(0), async () => undefined);
    await lanes.start(false, job(1), async () => undefined);
    const third = lanes.start(false, job(2), async () => undefined);
    await tick();
    expect(log).toEqual(["start 0", "start 1"]);
    gates[1]!.open();
    await third;
    expect(log).toEqual(["start 0", "start 1", "end 1", "start 2"]);
    // The large file waits for both, and nothing starts beside it.
    const alone = lanes.start(true, job(3), async () => undefined);
    gates[0]!.open();
    await tick();
    expect(log).not.toContain("start 3");
    gates[2]!.open();
    await alone;
    const after = lanes.start(false, async () => {
      log.push("start 4");
      return true;
    }, async () => undefined);
    await tick();
    expect(log.at(-1)).toBe("start 3");
    gates[3]!.open();
    await after;
    await lanes.drain();
    expect(log.slice(-3)).toEqual(["start 3", "end 3", "start 4"]);
  });

  it("syncs a file that lost a race again, alone, before the next file starts", async () => {
    const lanes = new FileLanes(2);
    const log: string[] = [];
    const slow = gate();
    await lanes.start(false, async () => {
      log.push("start a");
      await slow.promise;
      log.push("end a");
      return true;
    }, async () => undefined);
    await lanes.start(false, async (ranBeside) => {
      log.push(`b failed, beside another: ${ranBeside()}`);
      return false;
    }, async () => {
      log.push("b again");
    });
    const next = lanes.start(false, async () => {
      log.push("start c");
      return true;
    }, async () => undefined);
    await tick();
    expect(log).toEqual(["start a", "b failed, beside another: true"]);
    slow.open();
    await next;
    await lanes.drain();
    expect(log).toEqual(["start a", "b failed, beside another: true", "end a", "b again", "start c"]);
  });

  it("stops starting after a sync throws, and throws it once the other sync is done", async () => {
    const lanes = new FileLanes(2);
    const slow = gate();
    let otherDone = false;
    await lanes.start(false, async () => {
      await slow.promise;
      otherDone = true;
      return true;
    }, async () => undefined);
    await lanes.start(false, async () => {
      throw new Error("cancelled");
    }, async () => undefined);
    await tick();
    await expect(lanes.start(false, async () => true, async () => undefined)).rejects.toThrow("cancelled");
    const drained = lanes.drain().catch((e: Error) => e.message);
    await tick();
    expect(otherDone).toBe(false);
    slow.open();
    expect(await drained).toBe("cancelled");
    expect(otherDone).toBe(true);
  });
});

/** An InOrder of text events ("… progress" ones are progress) and what it passed on. */
function recorded(): { out: string[]; order: InOrder<string> } {
  const out: string[] = [];
  return { out, order: new InOrder<string>((e) => out.push(e), (e) => e.includes("progress")) };
}

describe("InOrder", () => {
  it("passes a later file's events on only after every earlier file is done, with its latest progress only", () => {
    const { out, order } = recorded();
    order.emit(0, "0 progress 1");
    order.emit(1, "1 progress 1");
    order.emit(1, "1 progress 2");
    order.emit(2, "2 file");
    order.done(2);
    expect(out).toEqual(["0 progress 1"]);
    order.emit(0, "0 file");
    order.done(0);
    expect(out).toEqual(["0 progress 1", "0 file", "1 progress 2"]);
    order.emit(1, "1 progress 3");
    order.emit(1, "1 file");
    order.done(1);
    expect(out).toEqual(["0 progress 1", "0 file", "1 progress 2", "1 progress 3", "1 file", "2 file"]);
  });

  it("after a stop, passes on what the files that finished hold, and nothing of one that did not", () => {
    const { out, order } = recorded();
    order.emit(0, "0 progress");
    order.emit(1, "1 progress");
    order.emit(2, "2 file");
    order.done(2);
    order.flushDone();
    expect(out).toEqual(["0 progress", "2 file"]);
  });
});
