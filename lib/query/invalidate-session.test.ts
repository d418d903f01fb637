/**
 * invalidateSession (keys.ts): after a turn everything of the session is refreshed except the
 * message pages of a recorded model call, which never change.
 */
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { inspectorKeys } from "@/lib/query/inspector";
import { invalidateSession, keys } from "@/lib/query/keys";

describe("invalidateSession", () => {
  it("marks the session's data stale but keeps a recorded call's message pages, and leaves other sessions alone", async () => {
    const qc = new QueryClient();
    const callPages = inspectorKeys.messages("s1", { kind: "call", callId: "c1" }, 5000);
    const entryPages = inspectorKeys.messages("s1", { kind: "entry", entryId: "e1" }, 5000);
    const previewPages = inspectorKeys.messages("s1", { kind: "preview" }, 5000);
    const callTurn = inspectorKeys.turn("s1", { kind: "call", callId: "c1" });
    const other = inspectorKeys.messages("s2", { kind: "entry", entryId: "e1" }, 5000);
    for (const key of [keys.session("s1"), callPages, entryPages, previewPages, callTurn, other]) qc.setQueryData(key, { any: 1 });

    await invalidateSession(qc, "s1");

    const stale = (key: readonly unknown[]) => qc.getQueryState(key)?.isInvalidated;
    expect(stale(callPages)).toBe(false);
    expect(stale(keys.session("s1"))).toBe(true);
    expect(stale(entryPages)).toBe(true);
    expect(stale(previewPages)).toBe(true);
    expect(stale(callTurn)).toBe(true);
    expect(stale(other)).toBe(false);
  });
});
