import { describe, expect, it } from "vitest";
import { loadSession } from "@/lib/session/file/load";
import { serializeSession } from "@/lib/session/file/jsonl";
import {
  assistantEntry,
  buildTree,
  header,
  labelEntry,
  sequentialIds,
  userEntry,
} from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";

const NOW = new Date("2025-06-01T12:00:00.000Z");

/**
 * 1 q ─ 2 a ─ 3 label(1 "start") ─ 4 q2 ─ 5 a2
 *          └─ 6 q-off ─ 7 label(6 "off path")
 * Entry 5 is the fork point; label 3 sits on the path, label 7 targets an entry off the path.
 */
function labelled() {
  const entries: SessionEntry[] = [
    userEntry("1", null, "q"),
    assistantEntry("2", "1", "a"),
    labelEntry("3", "2", "1", "start"),
    userEntry("4", "3", "q2"),
    assistantEntry("5", "4", "a2"),
    userEntry("6", "2", "q-off"),
    labelEntry("7", "6", "6", "off path"),
  ];
  return buildTree(entries, { newId: sequentialIds("L"), header: header({ id: "src", cwd: "/repo", title: "T" }) });
}

describe("createBranchedSession (session-engine.md §1.6)", () => {
  it("writes a v3 header with a new id, the time, the cwd and parentSession", () => {
    const fork = labelled().createBranchedSession("5", { newSessionId: "new", now: NOW, parentSession: "src-ref" });
    expect(fork.header).toEqual({
      type: "session",
      version: 3,
      id: "new",
      timestamp: NOW.toISOString(),
      cwd: "/repo",
      parentSession: "src-ref",
    });
  });

  it("parentSession defaults to the source session id, and the id to a fresh UUID", () => {
    const fork = labelled().createBranchedSession("5", { now: NOW });
    expect(fork.header.parentSession).toBe("src");
    expect(fork.header.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps labels on the path as fresh label entries and drops labels that point off the path", () => {
    const fork = labelled().createBranchedSession("5", { newSessionId: "new", now: NOW });
    expect(fork.entries.map((e) => e.id)).toEqual(["1", "2", "4", "5", "L1"]);
    expect(fork.entries.at(-1)).toEqual({
      type: "label",
      id: "L1",
      parentId: "5",
      timestamp: NOW.toISOString(),
      targetId: "1",
      label: "start",
    });
  });

  it("relinks an entry whose parent was a removed label to the nearest kept ancestor", () => {
    const fork = labelled().createBranchedSession("5", { newSessionId: "new", now: NOW });
    expect(fork.entries.map((e) => [e.id, e.parentId])).toEqual([
      ["1", null],
      ["2", "1"],
      ["4", "2"],
      ["5", "4"],
      ["L1", "5"],
    ]);
  });

  it("chains several label entries; the last one is the leaf on reload", () => {
    const tree = labelled();
    tree.branch("5");
    tree.appendLabelChange("4", "second");
    tree.appendLabelChange("2", "third");
    const leaf = tree.getLeafId()!;
    const fork = tree.createBranchedSession(leaf, { newSessionId: "new", now: NOW });
    const labels = fork.entries.filter((e) => e.type === "label");
    expect(labels.map((e) => [e.targetId, e.label])).toEqual([
      ["1", "start"],
      ["4", "second"],
      ["2", "third"],
    ]);
    expect(labels.map((e) => e.parentId)).toEqual(["5", labels[0]!.id, labels[1]!.id]);

    const reloaded = loadSession(serializeSession(fork.header, fork.entries)).tree;
    expect(reloaded.getLeafId()).toBe(labels[2]!.id);
    expect(reloaded.getBranch().map((e) => e.id)).toEqual(["1", "2", "4", "5", ...labels.map((e) => e.id)]);
    expect(reloaded.getLabels()).toEqual(
      new Map([
        ["1", "start"],
        ["4", "second"],
        ["2", "third"],
      ]),
    );
  });

  it("does not change the source tree and copies the entries", () => {
    const tree = labelled();
    const before = structuredClone([...tree.getEntries()]);
    const fork = tree.createBranchedSession("5", { newSessionId: "new", now: NOW });
    expect(tree.getEntries()).toEqual(before);
    expect(fork.entries[0]).not.toBe(tree.getEntry("1"));
    expect(fork.entries[0]).toEqual(tree.getEntry("1"));
  });

  it("throws for an unknown leaf", () => {
    expect(() => labelled().createBranchedSession("nope")).toThrow("Entry nope not found");
  });
});
