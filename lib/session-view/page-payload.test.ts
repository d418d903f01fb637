/**
 * The session page's skeleton data on the real database equals what resolving every entry gives
 * (skeleton-resolve.ts resolveSkeleton), before and after appends to the cached session: the whole
 * rows (payload, since-delta, stream), the tail of the path a large session's page brings
 * (back to the latest compaction's first kept entry), and the newest chat page.
 */
import { describe, expect, it } from "vitest";
import { appendEntries, branch, importSession, readSession } from "@/lib/db";
import { generateSession } from "@/test/generators/session";
import { serializeSession } from "@/lib/session/file/jsonl";
import { encodeRows } from "@/lib/session-view/skeleton-wire";
import { FLAG, type SkeletonEntry, skeletonFacts } from "@/lib/session-view/tree-skeleton";
import { resolveSkeleton } from "@/lib/session-view/skeleton-resolve";
import type { SessionEntry } from "@/lib/session/types";
import { assistantEntry, compactionEntry, userEntry } from "@/test/session-factories";
import { assistantMsg, toolCall, toolResultMsg, userMsg } from "@/test/session-messages";
import { useTestDatabase } from "@/test/db";
import { CHAT_PAGE, chatPlan } from "./chat-plan";
import { latestChatEntries, pagePayload, skeletonPayload, skeletonStream } from "./server";

useTestDatabase();

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

/** The tail rows of the path as the page picked them before the skeleton table (the reference). */
function tailRows(skeleton: readonly SkeletonEntry[], path: readonly SessionEntry[]): SkeletonEntry[] {
  const rowOf = new Map(skeleton.map((s) => [s.id, s]));
  const rows = path.map((e) => rowOf.get(e.id)!);
  let start = rows.length;
  for (let shown = 0; start > 0 && shown < 2 * CHAT_PAGE; ) if ((rows[--start]!.flags & FLAG.notInChat) === 0) shown++;
  for (let i = rows.length - 1; i >= start; i--) {
    if (rows[i]!.type !== "compaction") continue;
    const kept = rows.findIndex((r) => r.id === rows[i]!.firstKeptEntryId);
    if (kept >= 0 && kept < start) start = kept;
    break;
  }
  return rows.slice(start);
}

async function expectResolved(sessionId: string): Promise<void> {
  const view = await readSession({ sessionId });
  const entries = view.tree.getEntries();
  const skeleton = resolveSkeleton(entries);
  const wire = encodeRows(skeleton);
  expect(skeletonPayload(view).rows).toEqual(wire);
  expect(skeletonPayload(view, entries.length - 7).rows).toEqual(encodeRows(skeleton.slice(entries.length - 7)));
  const lines = [...skeletonStream(view)].slice(1).flatMap((l) => JSON.parse(l) as unknown[]);
  expect(lines).toEqual(JSON.parse(JSON.stringify(wire)));
  expect(JSON.parse(pagePayload(view).rowsJson)).toEqual(JSON.parse(JSON.stringify(wire)));
  const page = pagePayload(view, undefined, 50);
  expect(page.pending).toBe(true);
  const path = view.tree.getBranch();
  const tail = tailRows(skeleton, path);
  expect(page.rowsJson).toBe(JSON.stringify(encodeRows(tail)));
  // The prompts above the tail, so the map drawn from the tail numbers its turns as the whole tree does.
  const above = path.slice(0, path.length - tail.length);
  expect(page.tailTurnsBefore).toBe(above.filter((e) => e.type === "message" && e.message.role === "user").length);
  const plan = chatPlan(view.tree.getBranch().map(skeletonFacts));
  expect(latestChatEntries(view).map((e) => e.id)).toEqual(plan.slice(-CHAT_PAGE).map((p) => p.id));
}

describe("the session page's skeleton over the read model", () => {
  it("equals resolveSkeleton, also after appends extend the cached skeleton", async () => {
    // A last compaction that keeps from far before the page's tail: the tail reaches back to it.
    const { header, entries } = generateSession({ seed: 31, entries: 400, compactions: true, branches: 2, labels: 6 });
    const byId = new Map(entries.map((e) => [e.id, e]));
    const path: SessionEntry[] = [];
    for (let e: SessionEntry | undefined = entries.at(-1); e; e = e.parentId ? byId.get(e.parentId) : undefined) path.unshift(e);
    const compaction = compactionEntry("late-compaction", path.at(-1)!.id, "## Goal\nKeep going", path.at(-150)!.id, 50_000);
    entries.push(compaction, userEntry("after-1", compaction.id, "next"), assistantEntry("after-2", "after-1", "done"));
    const text = serializeSession(header, entries);
    const { sessionId } = await importSession({ source: bytes(text), fileName: "page.jsonl", asCopy: true });
    await expectResolved(sessionId);
    const view = await readSession({ sessionId });
    const leaf = view.meta.leafId ?? null;
    const firstCall = view.tree.getEntries().flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? e.message.content.filter((b) => b.type === "toolCall") : []))[0]!;
    await appendEntries({
      sessionId,
      expectedLeafId: leaf,
      entries: [
        { type: "message", message: userMsg("once more") },
        { type: "message", message: toolResultMsg("late-call", "answered before the call", { toolName: "bash" }) },
        { type: "message", message: assistantMsg("", { toolCalls: [toolCall("late-call", "bash", { command: "ls" }), toolCall(firstCall.id, "read", { path: "again.ts" })], stopReason: "toolUse" }) },
      ],
    });
    await expectResolved(sessionId);
    // The leaf moved back to an entry in the middle of the file: the page's tail is found there.
    const middle = view.tree.getEntries()[200]!;
    const moved = await readSession({ sessionId });
    await branch({ sessionId, expectedLeafId: moved.meta.leafId ?? null, targetId: middle.id });
    expect((await readSession({ sessionId })).tree.getBranch().at(-1)!.id).toBe(middle.id);
    await expectResolved(sessionId);
  });
});
