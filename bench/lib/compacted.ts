/**
 * The bench's realistic long session: a copy of an imported session that has compacted, as a
 * real context window makes it do long before 10k messages. One compaction entry is appended at
 * the leaf, keeping the newest ~20k tokens (the default keepRecentTokens, session-engine.md §5.3) after a
 * summary of ~2k tokens, so the context fits a 200k-token window with room to spare.
 */
import { findCutPoint } from "@/lib/compaction/cut-point";
import { estimateTokens } from "@/lib/compaction/tokens";
import { appendEntries, findSessionMeta, importSession, loadPath } from "@/lib/db";
import { buildSessionContext } from "@/lib/session/context";

const KEEP_RECENT_TOKENS = 20_000;

export async function compactedCopy(file: string): Promise<{ id: string; contextTokens: number; contextMessages: number }> {
  const { sessionId } = await importSession({ source: file, asCopy: true });
  const path = await loadPath({ sessionId });
  const cut = findCutPoint(path, 0, path.length, KEEP_RECENT_TOKENS);
  const firstKept = path[cut.firstKeptEntryIndex];
  if (!firstKept) throw new Error("bench: no cut point in the session");
  const tokensBefore = path.reduce((sum, e) => sum + (e.type === "message" ? estimateTokens(e.message) : 0), 0);
  const summary = `## Goal\nKeep the benchmark honest.\n\n## Progress\n${"Done: a step of the work, with its file and result. ".repeat(160)}`;
  const leafId = (await findSessionMeta({ id: sessionId }))?.leafId ?? null;
  await appendEntries({
    sessionId,
    expectedLeafId: leafId,
    entries: [{ type: "compaction", summary, firstKeptEntryId: firstKept.id, tokensBefore }],
  });
  const after = await loadPath({ sessionId });
  const { messages } = buildSessionContext(after, after.at(-1)?.id);
  return { id: sessionId, contextTokens: messages.reduce((sum, m) => sum + estimateTokens(m), 0), contextMessages: messages.length };
}
