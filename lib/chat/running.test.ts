/** The per-process run registry: one operation per session, Stop, and preemption of a turn. */
import { describe, expect, it } from "vitest";
import { abortRun, BusyError, claimRun, claimRunPreempting, runningKind, waitForRun, withRun } from "./running";

describe("running", () => {
  it("allows one run per session and says what is running", () => {
    const run = claimRun("s1", "turn");
    expect(() => claimRun("s1", "navigation")).toThrow(new BusyError("turn"));
    expect(() => claimRun("s1", "turn")).toThrow("A turn is already running in this session");
    const other = claimRun("s2", "compaction");
    expect(runningKind("s1")).toBe("turn");
    run.finish();
    run.finish();
    other.finish();
    expect(runningKind("s1")).toBeUndefined();
  });

  it("abortRun aborts the run's signal once; edits cannot be stopped", async () => {
    const run = claimRun("s3", "turn");
    expect(abortRun("s3")).toBe(true);
    expect(run.signal.aborted).toBe(true);
    expect(abortRun("s3")).toBe(false);
    run.finish();
    expect(abortRun("s3")).toBe(false);
    await withRun("s3", "edit", async () => {
      expect(abortRun("s3")).toBe(false);
    });
    expect(runningKind("s3")).toBeUndefined();
  });

  it("claimRunPreempting stops a running turn and waits for it; other kinds stay busy", async () => {
    const turn = claimRun("s4", "turn");
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
