/**
 * Calls of the compaction routes for the HTTP-level compaction tests (lib/chat/compaction-*.test.ts):
 * a compaction's review, "compact again", and the session's compaction entries.
 */
import { expect } from "vitest";
import { GET as reviewGet } from "@/app/api/sessions/[id]/compactions/[entryId]/route";
import { POST as againPost } from "@/app/api/sessions/[id]/compactions/[entryId]/again/route";
import type { CompactionReview } from "@/lib/compaction/compaction-review";
import type { CompactionEntry, SessionEntry } from "@/lib/session/types";
import { storedEntries } from "@/test/chat-harness";

/** Settings that keep little, so a short seeded history compacts. */
export const KEEP = { compaction: { keepRecentTokens: 150 } };

export const compactions = async (id: string) => (await storedEntries(id)).filter((e): e is CompactionEntry & SessionEntry => e.type === "compaction");

/** The route context of /api/sessions/[id]/compactions/[entryId]. */
export const compactionCtx = (id: string, entryId: string) => ({ params: Promise.resolve({ id, entryId }) });

export async function review(sessionId: string, entryId: string): Promise<CompactionReview> {
  const res = await reviewGet(new Request(`http://arbor.test/api/sessions/${sessionId}/compactions/${entryId}`), compactionCtx(sessionId, entryId));
  expect(res.status).toBe(200);
  return ((await res.json()) as { review: CompactionReview }).review;
}

export function again(sessionId: string, entryId: string, body: unknown) {
  return againPost(
    new Request(`http://arbor.test/api/sessions/${sessionId}/compactions/${entryId}/again`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    compactionCtx(sessionId, entryId),
  );
}
