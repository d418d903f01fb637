/**
 * The skeleton of a session tree (the light page): per-entry facts, toolResult texts
 * resolved against their calls, and the navigator over skeleton rows giving exactly what
 * flattenTree gives over full entries (session-engine.md §16.1–16.3), for every filter and for search.
 */
import { describe, expect, it } from "vitest";
import { generateSession } from "@/test/generators/session";
import { matchingIds } from "@/lib/session/search-text";
import { decodeRows, encodeRows } from "@/lib/session-view/skeleton-wire";
import {
  assistantEntry,
  branchSummaryEntry,
  chain,
  compactionEntry,
  customMessageEntry,
  labelEntry,
  messageEntry,
  userEntry,
} from "@/test/session-factories";
import { bashMsg, toolCall, toolResultMsg } from "@/test/session-messages";
import { buildTreeNodes } from "@/lib/session/tree/tree-build";
import { FILTERS, matchesSearch } from "@/lib/session/tree/tree-filter";
import { flattenTree } from "@/lib/session/tree/tree-flatten";
import { buildToolCallIndex } from "@/lib/session/tree/tree-row-text";
import { clipText, FLAG, hasFlag, ROW_TEXT_MAX, skeletonFacts } from "@/lib/session-view/tree-skeleton";
import { resolveSkeleton, skeletonLabels, toolCallTexts } from "@/lib/session-view/skeleton-resolve";
import { flattenSkeleton, skeletonPath } from "@/lib/session-view/tree-skeleton-view";
import { SessionTree } from "@/lib/session/tree/tree";
import type { SessionEntry } from "@/lib/session/types";

describe("skeletonFacts", () => {
  it("keeps ids, type, role, §16.2 row text, tokens and flags, no contents", () => {
    const long = "x".repeat(500);
    const [u, a] = chain(userEntry("u", null, `hello\n${long}`), assistantEntry("a", null, "", { toolCalls: [toolCall("c1", "ls", { path: "src" })] }));
    const su = skeletonFacts(u!);
    expect(su).toMatchObject({ id: "u", parentId: null, type: "message", role: "user", flags: 0 });
    expect(su.text.startsWith("user: hello x")).toBe(true);
    expect(su.text.length).toBe(ROW_TEXT_MAX);
    expect(su.tokens).toBeGreaterThan(100);
    expect(JSON.stringify(su)).not.toContain(long);
    const sa = skeletonFacts(a!);
    expect(sa.parentId).toBe("u");
    expect(hasFlag(sa, FLAG.hiddenAssistant)).toBe(true);
    expect(hasFlag(sa, FLAG.toolStep)).toBe(true);
  });

  it("a multi-line user message carries its first non-empty line (a turn's name), kept on the wire", () => {
    const [u, one] = chain(userEntry("u", null, "\n  Plan the parser  \nthen test it\n"), userEntry("one", null, "just one line"));
    const su = skeletonFacts(u!);
    expect(su.text).toBe("user: Plan the parser   then test it");
    expect(su.firstLine).toBe("Plan the parser");
    expect(skeletonFacts(one!).firstLine).toBeUndefined();
    expect(decodeRows(encodeRows([su]))[0]!.firstLine).toBe("Plan the parser");
  });

  it("a prompt in agent markup carries the line a person reads (a command, a notification), kept on the wire", () => {
    const [cmd, note] = chain(
      userEntry("cmd", null, "<command-message>exit</command-message>\n<command-name>/exit</command-name>"),
      userEntry("note", null, "<task-notification><status>completed</status></task-notification>"),
    );
    expect(skeletonFacts(cmd!).firstLine).toBe("/exit");
    expect(skeletonFacts(note!).firstLine).toBe("[task notification]");
    expect(decodeRows(encodeRows([skeletonFacts(cmd!)]))[0]!.firstLine).toBe("/exit");
  });

  it("carries compaction, branch summary and label fields, and chat visibility", () => {
    const c = compactionEntry("c", "u", "## Goal\nShip it", "u", 12_345);
    expect(skeletonFacts(c)).toMatchObject({ text: "[compaction: 12k tokens]", firstKeptEntryId: "u", tokensBefore: 12_345, preview: "Goal\nShip it" });
    expect(skeletonFacts(branchSummaryEntry("b", "u", "u", "first line\nsecond"))).toMatchObject({ preview: "first line\nsecond", flags: 0 });
    expect(skeletonFacts(labelEntry("l", "u", "u", "start"))).toMatchObject({ targetId: "u", labelValue: "start", flags: FLAG.notInChat });
    const hidden = customMessageEntry("m", null, "note", "text", false);
    expect(hasFlag(skeletonFacts(hidden), FLAG.notInChat)).toBe(true);
  });

  it("marks errors and provider usage of assistants", () => {
    const err = assistantEntry("e", null, "", { stopReason: "error", errorMessage: "boom" });
    const s = skeletonFacts(err);
    expect(hasFlag(s, FLAG.error)).toBe(true);
    expect(hasFlag(s, FLAG.hiddenAssistant)).toBe(false);
    expect(s.text).toBe("assistant: boom");
  });

  it("marks failed tools: an isError tool result, a bash execution that exited non-zero (the map's error marks)", () => {
    const failed = skeletonFacts(messageEntry("r", null, toolResultMsg("c1", "ENOENT", { isError: true })));
    expect(hasFlag(failed, FLAG.toolError)).toBe(true);
    expect(hasFlag(skeletonFacts(messageEntry("r2", null, toolResultMsg("c1", "ok"))), FLAG.toolError)).toBe(false);
    expect(hasFlag(skeletonFacts(messageEntry("b", null, bashMsg("npm test", "1 failed", { exitCode: 1 }))), FLAG.toolError)).toBe(true);
    expect(hasFlag(skeletonFacts(messageEntry("b2", null, bashMsg("ls", "a"))), FLAG.toolError)).toBe(false);
  });
});

describe("resolveSkeleton", () => {
  it("names a tool result by the call it answers (§16.2), without changing the memoised facts", () => {
    const a = assistantEntry("a", null, "", { toolCalls: [toolCall("c1", "read", { path: "a.ts", offset: 3, limit: 2 })] });
    const r = messageEntry("r", "a", toolResultMsg("c1", "contents", { toolName: "read" }));
    const facts = skeletonFacts(r);
    const [, row] = resolveSkeleton([a, r], { facts: (e) => (e === r ? facts : skeletonFacts(e)), calls: toolCallTexts });
    expect(row!.text).toBe("[read: a.ts:3-4]");
    expect(facts.text).toBe("[read]");
    expect(row).not.toBe(facts);
  });
});

describe("the navigator over skeleton rows equals flattenTree over entries (§16.1–16.3)", () => {
  const { entries } = generateSession({ seed: 11, entries: 3000, branches: 8, compactions: true, labels: 12 });
  const tree = new SessionTree({ type: "session", version: 3, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" }, entries);
  const labels = tree.getLabels();
  const byId = new Map(entries.map((e) => [e.id, e]));
  const roots = buildTreeNodes(entries, byId, labels);
  const skeleton = resolveSkeleton(entries);
  const leafId = entries.at(-1)!.id;
  const toolCallsById = buildToolCallIndex(entries);

  it("derives the same labels from the label rows", () => {
    expect(skeletonLabels(skeleton)).toEqual(labels);
  });

  for (const filter of FILTERS) {
    it(`same rows, depth, text and visibility under ${filter}`, () => {
      const full = flattenTree(roots, { leafId, filter, toolCallsById });
      const light = flattenSkeleton(skeleton, { leafId, filter, labels });
      expect(light.map((r) => r.entry.id)).toEqual(full.map((r) => r.entry.id));
      expect(light.map((r) => [r.depth, r.isActive, r.isLeaf, r.visible, r.parentIndex, r.label])).toEqual(
        full.map((r) => [r.depth, r.isActive, r.isLeaf, r.visible, r.parentIndex, r.label]),
      );
      expect(light.map((r) => r.text)).toEqual(full.map((r) => clipText(r.text)));
    });
  }

  it("search: the server's matching ids are the entries matchesSearch accepts", () => {
    for (const query of ["read", "USER fix", "label", "zzz-none", "compaction", "thinking"]) {
      const ids = matchingIds({ entries, labels, query });
      const tokens = query.toLowerCase().split(/\s+/);
      expect(ids).toEqual(entries.filter((e) => matchesSearch(e, labels.get(e.id), tokens)).map((e) => e.id));
      const full = flattenTree(roots, { leafId, search: query, toolCallsById });
      const light = flattenSkeleton(skeleton, { leafId, labels, matches: new Set(ids) });
      expect(light.map((r) => r.visible)).toEqual(full.map((r) => r.visible));
    }
    expect(matchingIds({ entries, labels, query: "  " })).toBeNull();
  });

  it("walks the active path like getBranch", () => {
    const rowsById = new Map(skeleton.map((s) => [s.id, s]));
    expect(skeletonPath(rowsById, leafId).map((s) => s.id)).toEqual(tree.getBranch(leafId).map((e) => e.id));
    expect(skeletonPath(rowsById, null)).toEqual([]);
  });

  it("survives the wire: decode(encode(rows)) equals the rows without toolCallId", () => {
    const decoded = decodeRows(JSON.parse(JSON.stringify(encodeRows(skeleton))));
    expect(decoded).toEqual(skeleton.map(({ toolCallId: _, ...rest }) => rest));
  });

  it("an unparsable timestamp survives the wire as NaN (a tie when sorting)", () => {
    const odd = { ...userEntry("odd", null, "hi"), timestamp: "not a date" } as SessionEntry;
    const [row] = decodeRows(JSON.parse(JSON.stringify(encodeRows([skeletonFacts(odd)]))));
    expect(Number.isNaN(row!.t)).toBe(true);
  });
});
