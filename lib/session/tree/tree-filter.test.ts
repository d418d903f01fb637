import { describe, expect, it } from "vitest";
import {
  assistantEntry,
  bashMsg,
  branchSummaryEntry,
  compactionEntry,
  customEntry,
  customMessageEntry,
  labelEntry,
  messageEntry,
  modelChangeEntry,
  thinkingEntry,
  toolCall,
  toolResultMsg,
  userEntry,
} from "@/test/session-factories";
import {
  emptyText,
  FILTERS,
  filterTag,
  formatFooter,
  isEntryVisible,
  isHiddenAssistant,
  isTreeFilter,
  matchesSearch,
  nextFilter,
  parseSearch,
  passesFilter,
  type TreeFilter,
} from "@/lib/session/tree/tree-filter";
import type { SessionEntry } from "@/lib/session/types";

describe("filters (session-engine.md §16.3)", () => {
  it("cycle in the order default, no-tools, user-only, labeled-only, all", () => {
    expect(FILTERS).toEqual(["default", "no-tools", "user-only", "labeled-only", "all"]);
    const forward: TreeFilter[] = [];
    let f: TreeFilter = "default";
    for (let i = 0; i < 5; i++) {
      f = nextFilter(f, 1);
      forward.push(f);
    }
    expect(forward).toEqual(["no-tools", "user-only", "labeled-only", "all", "default"]);
    expect(nextFilter("default", -1)).toBe("all");
    expect(nextFilter("no-tools", -1)).toBe("default");
    expect(nextFilter("all")).toBe("default");
  });

  it("isTreeFilter accepts exactly the five names", () => {
    expect(FILTERS.every(isTreeFilter)).toBe(true);
    expect(isTreeFilter("user")).toBe(false);
    expect(isTreeFilter(undefined)).toBe(false);
  });

  it("footer: (i/N) then the tag; (0/0) when empty", () => {
    expect(FILTERS.map(filterTag)).toEqual(["", " [no-tools]", " [user]", " [labeled]", " [all]"]);
    expect(formatFooter(0, 12, "default")).toBe("(1/12)");
    expect(formatFooter(11, 12, "no-tools")).toBe("(12/12) [no-tools]");
    expect(formatFooter(0, 0, "default")).toBe("(0/0)");
    expect(formatFooter(-1, 0, "user-only")).toBe("(0/0) [user]");
  });

  it("empty results texts", () => {
    expect(emptyText(0)).toBe("No entries in session");
    expect(emptyText(5)).toBe("No entries found");
  });

  const user = userEntry("u", null, "hi");
  const tool = messageEntry("r", null, toolResultMsg("c", "out"));
  const assistant = assistantEntry("a", null, "ok");
  const settings: SessionEntry[] = [
    labelEntry("l", null, "u", "x"),
    customEntry("c", null, "t"),
    modelChangeEntry("m", null, "a/b"),
    thinkingEntry("t", null, "high"),
  ];
  const others: SessionEntry[] = [
    compactionEntry("k", null, "s", "u"),
    branchSummaryEntry("b", null, "root", "s"),
    customMessageEntry("cm", null, "n", "x"),
    messageEntry("be", null, bashMsg("ls", "")),
  ];

  it("default hides label, custom, model_change and thinking_level_change only", () => {
    for (const e of settings) expect(passesFilter(e, undefined, "default")).toBe(false);
    for (const e of [user, tool, assistant, ...others]) expect(passesFilter(e, undefined, "default")).toBe(true);
  });

  it("no-tools also hides toolResult", () => {
    expect(passesFilter(tool, undefined, "no-tools")).toBe(false);
    for (const e of settings) expect(passesFilter(e, undefined, "no-tools")).toBe(false);
    for (const e of [user, assistant, ...others]) expect(passesFilter(e, undefined, "no-tools")).toBe(true);
  });

  it("user-only shows only user messages; labeled-only only labelled entries; all everything", () => {
    expect([user, tool, assistant, ...others, ...settings].filter((e) => passesFilter(e, undefined, "user-only"))).toEqual([
      user,
    ]);
    expect(passesFilter(tool, "v1", "labeled-only")).toBe(true);
    expect(passesFilter(user, undefined, "labeled-only")).toBe(false);
    for (const e of [user, tool, ...settings, ...others]) expect(passesFilter(e, undefined, "all")).toBe(true);
  });
});

describe("hidden assistants (session-engine.md §16.3)", () => {
  it("no non-whitespace text with stop/toolUse is hidden", () => {
    expect(isHiddenAssistant(assistantEntry("a", null, "", { toolCalls: [toolCall("c", "ls")] }))).toBe(true);
    expect(isHiddenAssistant(assistantEntry("a", null, "  \n", { stopReason: "stop" }))).toBe(true);
    expect(isHiddenAssistant(assistantEntry("a", null, "", { thinking: "x", stopReason: "stop" }))).toBe(true);
  });

  it("text, or an error/aborted/length stop, keeps it visible", () => {
    expect(isHiddenAssistant(assistantEntry("a", null, "Reading", { toolCalls: [toolCall("c", "ls")] }))).toBe(false);
    for (const stopReason of ["error", "aborted", "length"] as const) {
      expect(isHiddenAssistant(assistantEntry("a", null, "", { stopReason }))).toBe(false);
    }
    expect(isHiddenAssistant(userEntry("u", null, ""))).toBe(false);
  });

  it("the current leaf is exempt, in every filter that lets assistants through", () => {
    const hidden = assistantEntry("a", null, "", { toolCalls: [toolCall("c", "ls")] });
    expect(isEntryVisible(hidden, undefined, { filter: "all", tokens: [], isLeaf: false })).toBe(false);
    expect(isEntryVisible(hidden, undefined, { filter: "all", tokens: [], isLeaf: true })).toBe(true);
    expect(isEntryVisible(hidden, undefined, { filter: "default", tokens: [], isLeaf: true })).toBe(true);
    // The exemption is for the hidden-assistant rule only; user-only still hides the leaf.
    expect(isEntryVisible(hidden, undefined, { filter: "user-only", tokens: [], isLeaf: true })).toBe(false);
  });
});

describe("search (session-engine.md §16.3)", () => {
  it("lowercases and splits the query on whitespace", () => {
    expect(parseSearch("  Foo\tBAR  baz ")).toEqual(["foo", "bar", "baz"]);
    expect(parseSearch("")).toEqual([]);
  });

  it("every token must be a substring of the searchable text, in any order", () => {
    const e = userEntry("u", null, "Rename the Config loader");
    expect(matchesSearch(e, undefined, parseSearch("loader CONFIG"))).toBe(true);
    expect(matchesSearch(e, undefined, parseSearch("conf load user"))).toBe(true);
    expect(matchesSearch(e, undefined, parseSearch("config missing"))).toBe(false);
    expect(matchesSearch(e, "Release-1", parseSearch("release"))).toBe(true);
    expect(matchesSearch(e, undefined, [])).toBe(true);
  });

  it("search combines with the filter", () => {
    const e = thinkingEntry("t", null, "high");
    expect(isEntryVisible(e, undefined, { filter: "all", tokens: ["thinking", "high"], isLeaf: false })).toBe(true);
    expect(isEntryVisible(e, undefined, { filter: "default", tokens: ["thinking"], isLeaf: false })).toBe(false);
  });
});
