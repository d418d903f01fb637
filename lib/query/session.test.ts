/** The cached skeleton: full payloads, `?since=` deltas, rows streamed in before a refresh. */
import { describe, expect, it } from "vitest";
import type { SessionMeta } from "@/lib/db";
import { encodeRows } from "@/lib/session-view/skeleton-wire";
import { chain, userEntry } from "@/test/session-factories";
import { skeletonFacts } from "@/lib/session-view/tree-skeleton";
import type { SkeletonPayload } from "@/lib/types/session-page";
import { PAGE_SKELETON_MAX } from "@/lib/types/session-page";
import { mergePayload, pageData, refreshPlan, sessionView } from "./session";
import { withLeaf, withSavedEntry } from "./session-cache";

const entries = chain(userEntry("a", null, "one"), userEntry("b", null, "two"), userEntry("c", null, "three"));
const rows = entries.map(skeletonFacts);
const meta = (leafId: string, entryCount: number) => ({ id: "s", leafId, entryCount }) as SessionMeta;
const meter = { tokens: 0, usageTokens: 0, trailingTokens: 0, lastUsageIndex: null, estimated: true };
const payload = (from: number, to: number): SkeletonPayload => ({
  session: meta(rows[to - 1]!.id, to),
  rev: to,
  count: to,
  from,
  rows: encodeRows(rows.slice(from, to)),
  meter,
});

describe("mergePayload and sessionView", () => {
  it("appends a delta to the cached chunks and decodes them as one skeleton", () => {
    const first = mergePayload(undefined, payload(0, 2));
    const merged = mergePayload(first, payload(2, 3));
    expect(merged.chunks).toHaveLength(2);
    const view = sessionView(merged);
    expect(view.rows.map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(view.rows[2]!.parentId).toBe("b");
    expect(view.path.map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(sessionView(merged)).toBe(view);
    expect(mergePayload(merged, payload(0, 3)).chunks).toHaveLength(1);
  });

  it("decodes the page's rows from their JSON text as from the arrays, and takes deltas after them", () => {
    const { rows: wire, ...rest } = payload(0, 2);
    const page = pageData({ ...rest, rowsJson: JSON.stringify(wire) });
    expect(page).toMatchObject({ count: 2, rev: 2, live: [], chunks: [{ json: JSON.stringify(wire) }] });
    expect(sessionView(page).rows).toEqual(sessionView(mergePayload(undefined, payload(0, 2))).rows);
    const merged = mergePayload(page, payload(2, 3));
    expect(sessionView(merged).path.map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(sessionView(merged).rows[2]!.parentId).toBe("b");
  });

  it("shows a streamed row at once; the next refresh replaces it with the server's", () => {
    const first = mergePayload(undefined, payload(0, 2));
    const live = withSavedEntry(first, rows[2]!, "c")!;
    expect(live.session).toMatchObject({ leafId: "c", entryCount: 3 });
    expect(sessionView(live).path.map((r) => r.id)).toEqual(["a", "b", "c"]);
    const refreshed = mergePayload(live, payload(2, 3));
    expect(refreshed.live).toEqual([]);
    expect(sessionView(refreshed).rows.map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(sessionView(withLeaf(refreshed, "a")!).path.map((r) => r.id)).toEqual(["a"]);
  });
});

describe("refreshPlan", () => {
  const cached = (count: number) => ({ ...mergePayload(undefined, payload(0, 3)), count });

  it("asks only for what was appended since the cached count", () => {
    expect(refreshPlan(cached(3), false)).toEqual({ kind: "json", since: 3 });
    expect(refreshPlan(cached(PAGE_SKELETON_MAX + 5), false)).toEqual({ kind: "json", since: PAGE_SKELETON_MAX + 5 });
  });

  it("reloads a small session whole as JSON, and streams a large one (after a prune), as its page does", () => {
    expect(refreshPlan(cached(3), true)).toEqual({ kind: "json", since: 0 });
    expect(refreshPlan(cached(PAGE_SKELETON_MAX), true)).toEqual({ kind: "json", since: 0 });
    expect(refreshPlan(cached(PAGE_SKELETON_MAX + 1), true)).toEqual({ kind: "stream" });
    expect(refreshPlan(undefined, true)).toEqual({ kind: "json", since: 0 });
  });
});
