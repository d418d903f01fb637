/**
 * Small hand-built sessions shared by the components/tree tests. Not used by production code.
 * Pure: no React, no DOM.
 */
import {
  assistantEntry,
  branchSummaryEntry,
  compactionEntry,
  isoAt,
  messageEntry,
  toolCall,
  toolResultMsg,
  userEntry,
} from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";

let clock = 100;
/** Strictly increasing timestamps so that file order is timestamp order. */
function at(): { timestamp: string } {
  clock += 1;
  return { timestamp: isoAt(clock) };
}

/** A hidden assistant (tool call only) and its toolResult: two entries, one visible. */
export function toolStep(id: string, parentId: string, path = `src/${id}.ts`): SessionEntry[] {
  return [
    assistantEntry(`${id}a`, parentId, "", { toolCalls: [toolCall(`c-${id}`, "read", { path })] }, at()),
    messageEntry(id, `${id}a`, toolResultMsg(`c-${id}`, "contents", { toolName: "read" }), at()),
  ];
}

export const user = (id: string, parentId: string | null, text = id) => userEntry(id, parentId, text, at());
export const reply = (id: string, parentId: string, text = `reply ${id}`) => assistantEntry(id, parentId, text, {}, at());
export const compaction = (id: string, parentId: string, firstKept: string, tokensBefore = 12_400) =>
  compactionEntry(id, parentId, `Summary of ${id}\nmore detail`, firstKept, tokensBefore, at());
export const branchSummary = (id: string, parentId: string) =>
  branchSummaryEntry(id, parentId, parentId, `Tried another way\nline 2\nline 3\nline 4\nline 5`, at());

/**
 * u1 → t1 → t2 → t3 → a1 "done" → u2 → a2
 * (t1..t3 are tool steps whose tool-call-only assistants are hidden)
 */
export function toolRunSession(): SessionEntry[] {
  return [
    user("u1", null),
    ...toolStep("t1", "u1"),
    ...toolStep("t2", "t1"),
    ...toolStep("t3", "t2"),
    reply("a1", "t3", "done"),
    user("u2", "a1"),
    reply("a2", "u2"),
  ];
}

/**
 * u1 → a1 → u2 → a2 → u3 → a3 → C1 (keeps from u3) → u4 → a4 → C2 (keeps from a4) → u5 → a5
 *                 └→ u2b → a2b (side branch, older leaf)
 */
export function compactedSession(): SessionEntry[] {
  return [
    user("u1", null),
    reply("a1", "u1"),
    user("u2", "a1"),
    reply("a2", "u2"),
    user("u2b", "a1", "side"),
    reply("a2b", "u2b"),
    user("u3", "a2"),
    reply("a3", "u3"),
    compaction("C1", "a3", "u3"),
    user("u4", "C1"),
    reply("a4", "u4"),
    compaction("C2", "a4", "a4", 30_000),
    user("u5", "C2"),
    reply("a5", "u5"),
  ];
}
