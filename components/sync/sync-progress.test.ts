/** Overall sync progress folded from the sync's events (sync-progress.ts): what the Sync page and the first start show. */
import { describe, expect, it } from "vitest";
import type { FileOutcome, SyncStreamEvent } from "@/lib/types/sync-events";
import { advance, describeProgress, etaMs, type OverallProgress, percentDone } from "./sync-progress";

const file = (index: number, bytes: number, outcome: FileOutcome): SyncStreamEvent => ({ type: "file", file: `/f/${index}.jsonl`, index, bytes, outcome, text: "" });
const imported: FileOutcome = { kind: "imported", sessionId: "s", format: "pi", entries: 3, records: 3 };

function fold(events: [number, SyncStreamEvent][]): OverallProgress {
  let p: OverallProgress | null = null;
  for (const [t, e] of events) p = advance(p, e, t);
  if (!p) throw new Error("no start");
  return p;
}

describe("overall sync progress", () => {
  it("counts files, bytes and sessions, and estimates the time left from the files that needed work", () => {
    const p = fold([
      [0, { type: "start", files: 4, bytes: 4_000, folders: ["/f"] }],
      // A resumed sync: the first file was done before and only looked at.
      [10, file(0, 1_000, { kind: "unchanged", sessionId: "a" })],
      [2_010, file(1, 1_000, imported)],
      [3_000, { type: "progress", file: "/f/2.jsonl", index: 2, bytes: 500, entries: 4 }],
    ]);
    expect(p).toMatchObject({ filesDone: 2, bytesDone: 2_000, currentBytes: 500, imported: 1, updated: 0 });
    expect(percentDone(p)).toBe(63);
    // 1,500 bytes of work in 3 s; 1,500 bytes left: about 3 s more.
    expect(etaMs(p, 3_000)).toBe(3_000);
    expect(describeProgress(p, 3_000)).toBe("2 of 4 files · 2.4 KB of 3.9 KB · 1 session imported · about 3 s left");
  });

  it("a listing problem is reported but is no listed file; appended, failed and new versions are told apart", () => {
    const p = fold([
      [0, { type: "start", files: 2, bytes: 200, folders: ["/f"] }],
      [1, file(2, 0, { kind: "failed", message: "/f/locked: this folder cannot be listed" })],
      [2, file(0, 100, { kind: "appended", sessionId: "a", added: 2 })],
      [3, file(1, 100, { kind: "rewritten", sessionId: "b", previousSessionId: "c", version: 2, entries: 3, why: "x" })],
    ]);
    expect(p).toMatchObject({ filesDone: 2, imported: 1, updated: 1, failed: 1 });
    expect(describeProgress(p, 3)).toBe("2 of 2 files · 200 B of 200 B · 1 session imported, 1 updated, 1 failed");
  });

  it("no estimate in the first second, nor before any work", () => {
    const p = fold([[0, { type: "start", files: 3, bytes: 300, folders: [] }]]);
    expect(etaMs(p, 500)).toBeNull();
    expect(etaMs(p, 5_000)).toBeNull();
    expect(percentDone(fold([[0, { type: "start", files: 0, bytes: 0, folders: [] }]]))).toBe(100);
  });
});
