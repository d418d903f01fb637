/**
 * buildSourcedSessionContext (session-engine.md §2): the same context as buildSessionContext, plus the entry
 * each message comes from, so the inspector never walks the path a second time.
 */
import { describe, expect, it } from "vitest";
import { buildSessionContext, buildSourcedSessionContext } from "@/lib/session/context";
import {
  assistantEntry,
  branchSummaryEntry,
  chain,
  compactionEntry,
  customMessageEntry,
  labelEntry,
  thinkingEntry,
  userEntry,
} from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";

function both(entries: SessionEntry[], leaf?: string | null) {
  const sourced = buildSourcedSessionContext(entries, leaf);
  expect(sourced.context).toEqual(buildSessionContext(entries, leaf));
  expect(sourced.sourceEntryIds).toHaveLength(sourced.context.messages.length);
  return sourced.sourceEntryIds;
}

describe("buildSourcedSessionContext", () => {
  it("names the entry of every message on a linear path, skipping entries that emit nothing", () => {
    const entries = chain(
      thinkingEntry("t", null, "high"),
      userEntry("1", null, "q"),
      labelEntry("l", null, "1", "mark"),
      customMessageEntry("c", null, "note", "hello"),
      assistantEntry("2", null, "a"),
    );
    expect(both(entries)).toEqual(["1", "c", "2"]);
  });

  it("gives the compaction entry for the summary, then the kept entries, then the entries after it", () => {
    const entries = chain(
      userEntry("1", null, "first"),
      assistantEntry("2", null, "response1"),
      userEntry("3", null, "second"),
      assistantEntry("4", null, "response2"),
      compactionEntry("5", null, "Summary", "3"),
      userEntry("6", null, "third"),
      assistantEntry("7", null, "response3"),
    );
    expect(both(entries)).toEqual(["5", "3", "4", "6", "7"]);
    // At a leaf before the compaction, the compaction is not on the path.
    expect(both(entries, "4")).toEqual(["1", "2", "3", "4"]);
  });

  it("follows only the branch to the leaf, with its branch summary; an empty summary adds nothing", () => {
    const base = chain(userEntry("1", null, "q"), assistantEntry("2", null, "a"));
    const side = userEntry("3", "2", "left");
    const summary = branchSummaryEntry("4", "2", "3", "went left");
    const empty = { ...branchSummaryEntry("5", "4", "3", ""), summary: "" } as SessionEntry;
    const right = userEntry("6", "5", "right");
    const entries = [...base, side, summary, empty, right];
    expect(both(entries, "6")).toEqual(["1", "2", "4", "6"]);
    expect(both(entries, "3")).toEqual(["1", "2", "3"]);
  });

  it("is empty for a null leaf and an empty session", () => {
    expect(both([userEntry("1", null, "q")], null)).toEqual([]);
    expect(both([])).toEqual([]);
  });
});
