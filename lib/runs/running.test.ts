/**
 * The run registry within one process: one run per session, Stop, and preemption of a turn.
 * It takes its cross-process locks on a real database (lib/runs/running-multi.test.ts covers
 * several processes).
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { abortRun, BusyError, claimRun, claimRunPreempting, runningKind, waitForRun, withRun } from "./running";

useTestDatabase();

describe("running", () => {
  it("allows one run per session and says what is running", async () => {
    const run = await claimRun("s1", "turn");
    await expect(claimRun("s1", "navigation")).rejects.toThrow(new BusyError("turn"));
    await expect(claimRun("s1", "turn")).rejects.toThrow("A turn is already running in this session");
    const other = await claimRun("s2", "compaction");
    expect(runningKind("s1")).toBe("turn");
    run.finish();
    run.finish();
    other.finish();
    expect(runningKind("s1")).toBeUndefined();
    // The slot is free again, in this process and for the database.
    (await claimRun("s1", "edit")).finish();
  });

  it("reserves the slot synchronously: of two claims in one tick exactly one wins", async () => {
    const results = await Promise.allSettled([claimRun("s5", "turn"), claimRun("s5", "compaction")]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    (results[0] as PromiseFulfilledResult<{ finish(): void }>).value.finish();
  });

  it("abortRun aborts the run's signal once; edits cannot be stopped", async () => {
    const run = await claimRun("s3", "turn");
    expect(await abortRun("s3")).toBe(true);
    expect(run.signal.aborted).toBe(true);
    expect(await abortRun("s3")).toBe(false);
    run.finish();
    expect(await abortRun("s3")).toBe(false);
    await withRun("s3", "edit", async () => {
      expect(await abortRun("s3")).toBe(false);
    });
    expect(runningKind("s3")).toBeUndefined();
  });

  it("claimRunPreempting stops a running turn and waits for it; other kinds stay busy", async () => {
    const turn = await claimRun("s4", "turn");
    turn.signal.addEventListener("abort", () => setTimeout(() => turn.finish(), 10));
    const compaction = await claimRunPreempting("s4", "compaction", ["turn"]);
    expect(turn.signal.aborted).toBe(true);
    expect(runningKind("s4")).toBe("compaction");
    await expect(claimRunPreempting("s4", "compaction", ["turn"])).rejects.toThrow("A compaction is already running in this session");
    setTimeout(() => compaction.finish(), 5);
    await waitForRun("s4");
    expect(runningKind("s4")).toBeUndefined();
  });
});
