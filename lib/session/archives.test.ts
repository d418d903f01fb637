/** Archived branches (session-engine.md §19.4): a custom marker entry, nothing deleted. */
import { describe, expect, it } from "vitest";
import { archivedIds, archiveEntryFields, archiveOf, hiddenByArchive } from "@/lib/session/archives";
import { decodeRows, encodeRows } from "@/lib/session-view/skeleton-wire";
import { skeletonFacts } from "@/lib/session-view/tree-skeleton";
import { resolveSkeleton, skeletonArchiveChanges } from "@/lib/session-view/skeleton-resolve";
import { customEntry, userEntry } from "@/test/session-factories";

const parents: Record<string, string | null> = { u1: null, a1: "u1", u2: "a1", a2: "u2", u2b: "a1", a2b: "u2b", u3b: "a2b" };
const parentOf = (id: string) => parents[id] ?? null;
const ids = Object.keys(parents);

describe("archives", () => {
  it("an archive is a pi custom entry; the last change per branch wins", () => {
    const fields = archiveEntryFields("u2b", true);
    expect(fields).toEqual({ type: "custom", customType: "arbor.archive", data: { targetId: "u2b", archived: true } });
    expect(archiveOf({ ...fields })).toEqual({ targetId: "u2b", archived: true });
    expect(archiveOf({ type: "custom", customType: "arbor.archive", data: { targetId: 3 } })).toBeUndefined();
    expect(archiveOf({ type: "custom", customType: "arbor.pin", data: { targetId: "x", pinned: true } })).toBeUndefined();
    const changes = [archiveOf(archiveEntryFields("u2b", true)), archiveOf(archiveEntryFields("x", true)), archiveOf(archiveEntryFields("x", false))];
    expect([...archivedIds(changes)]).toEqual(["u2b"]);
  });

  it("hides the archived branch's whole subtree and nothing else", () => {
    expect([...hiddenByArchive(ids, parentOf, new Set(["u2b"]), "a2")].sort()).toEqual(["a2b", "u2b", "u3b"]);
    expect(hiddenByArchive(ids, parentOf, new Set(), "a2").size).toBe(0);
  });

  it("never hides the branch holding the current leaf", () => {
    expect(hiddenByArchive(ids, parentOf, new Set(["u2b"]), "u3b").size).toBe(0);
    // An archived branch inside another that holds the leaf still hides.
    expect([...hiddenByArchive(ids, parentOf, new Set(["u2b", "u2"]), "u3b")].sort()).toEqual(["a2", "u2"]);
  });

  it("the skeleton carries archive entries (row text, target, state) across the wire", () => {
    const e = customEntry("ar", "a1", "arbor.archive", { targetId: "u2b", archived: true });
    const s = skeletonFacts(e);
    expect(s).toMatchObject({ text: "[archive: u2b]", targetId: "u2b", archived: true });
    const restore = skeletonFacts(customEntry("re", "ar", "arbor.archive", { targetId: "u2b", archived: false }));
    expect(restore.text).toBe("[restore: u2b]");
    const rows = resolveSkeleton([userEntry("u1", null, "hi"), e]);
    expect(skeletonArchiveChanges(decodeRows(encodeRows(rows)))).toEqual([{ targetId: "u2b", archived: true }]);
  });
});
