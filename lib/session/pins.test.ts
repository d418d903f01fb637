/**
 * Pins (docs/session-engine.md §19) in the code paths that switch over entry types: row text,
 * search text, the skeleton and its wire form, the default tree filter, and pi JSONL.
 */
import { describe, expect, it } from "vitest";
import { serializeSession } from "@/lib/session/file/jsonl";
import { loadSession } from "@/lib/session/file/load";
import { pinEntryFields } from "@/lib/session/pins";
import { decodeRows, encodeRows } from "@/lib/session-view/skeleton-wire";
import { header, userEntry } from "@/test/session-factories";
import { passesFilter } from "@/lib/session/tree/tree-filter";
import { rowText, searchableText } from "@/lib/session/tree/tree-row-text";
import { skeletonFacts } from "@/lib/session-view/tree-skeleton";
import { skeletonPins } from "@/lib/session-view/skeleton-resolve";
import type { SessionEntry } from "@/lib/session/types";

const pin = (id: string, parentId: string, targetId: string, pinned: boolean) =>
  ({ ...pinEntryFields(targetId, pinned), id, parentId, timestamp: "2026-01-01T00:00:10.000Z" }) as SessionEntry;

const entries: SessionEntry[] = [
  userEntry("u1", null, "Keep the public API stable."),
  pin("p1", "u1", "u1", true),
  userEntry("u2", "p1", "Second."),
  pin("p2", "u2", "u2", true),
  pin("p3", "p2", "u2", false),
];

describe("pin entries in row text, search, skeleton and filters", () => {
  it("row text and search text name what is pinned or unpinned", () => {
    const ctx = { toolCallsById: new Map() };
    expect(rowText(entries[1]!, ctx)).toBe("[pin: u1]");
    expect(rowText(entries[4]!, ctx)).toBe("[unpin: u2]");
    expect(searchableText(entries[1]!, undefined)).toBe("pin u1");
    // Another extension's custom entry keeps its usual row text.
    expect(rowText({ ...entries[1]!, customType: "other" } as SessionEntry, ctx)).toBe("[custom: other]");
  });

  it("the skeleton carries the pin, through the wire form, and the last pin per target wins", () => {
    const rows = entries.map(skeletonFacts);
    expect(rows[1]).toMatchObject({ targetId: "u1", pinned: true });
    expect(rows[4]).toMatchObject({ targetId: "u2", pinned: false });
    expect(rows[0]?.pinned).toBeUndefined();
    const decoded = decodeRows(encodeRows(rows));
    expect(decoded.map((r) => r.pinned)).toEqual(rows.map((r) => r.pinned));
    expect([...skeletonPins(decoded)]).toEqual(["u1"]);
  });

  it("pin entries are settings-like: hidden by the default filter, shown by 'all'", () => {
    expect(passesFilter(entries[1]!, undefined, "default")).toBe(false);
    expect(passesFilter(entries[1]!, undefined, "all")).toBe(true);
  });

  it("pi JSONL keeps pin entries verbatim (a pi custom entry)", () => {
    const text = serializeSession(header(), entries);
    const line = text.split("\n").find((l) => l.includes('"p1"'));
    expect(JSON.parse(line ?? "{}")).toEqual({
      type: "custom",
      customType: "arbor.pin",
      data: { targetId: "u1", pinned: true },
      id: "p1",
      parentId: "u1",
      timestamp: "2026-01-01T00:00:10.000Z",
    });
    expect(loadSession(text).entries).toEqual(entries);
  });
});
