/** "Jump to" always offers the current leaf, first prompt, last error, compactions, labels, file edits and turns (ui.md). */
import { describe, expect, it } from "vitest";
import { jumpMenu } from "@/components/tree/model/jump-targets";
import { overviewModel } from "@/test/tree-models";
import { assistantEntry, isoAt, messageEntry, toolCall, toolResultMsg } from "@/test/session-factories";
import { compactedSession, reply, user } from "@/test/tree-sessions";
import type { SessionEntry } from "@/lib/session/types";

function menu(entries: SessionEntry[], leafId: string, labels = new Map<string, string>()) {
  const model = overviewModel(entries, { leafId, labels });
  return jumpMenu(model.flow.rows, model.landmarks, leafId);
}
const group = (m: ReturnType<typeof menu>, label: string) => m.find((g) => g.label === label)?.items ?? [];

describe("jumpMenu", () => {
  it("a session without compactions or labels still offers the leaf, the first prompt and every turn", () => {
    const m = menu([user("u1", null, "Port the parser"), reply("a1", "u1"), user("u2", "a1", "Now the tests"), reply("a2", "u2")], "a2");
    expect(group(m, "Go to")).toEqual([
      { text: "Current leaf (you are here)", entryId: "a2" },
      { text: "First prompt: Port the parser", entryId: "u1" },
    ]);
    expect(group(m, "Turns of the current path")).toEqual([
      { text: "turn 1: Port the parser", entryId: "u1" },
      { text: "turn 2: Now the tests", entryId: "u2" },
    ]);
  });

  it("the last error, edits to each file, compactions latest first, labels and branch points", () => {
    const at = (s: number) => ({ timestamp: isoAt(20_000 + s) });
    const entries: SessionEntry[] = [
      ...compactedSession(),
      assistantEntry("e1", "a5", "", { toolCalls: [toolCall("c1", "edit", { path: "src/a.ts" })] }, at(1)),
      messageEntry("r1", "e1", toolResultMsg("c1", "patched", { toolName: "edit" }), at(2)),
      assistantEntry("e2", "r1", "", { toolCalls: [toolCall("c2", "edit", { path: "src/a.ts" })] }, at(3)),
      messageEntry("r2", "e2", toolResultMsg("c2", "no match", { toolName: "edit", isError: true }), at(4)),
      reply("a6", "r2", "Fixed it"),
    ];
    const m = menu(entries, "a6", new Map([["u4", "checkpoint"]]));
    expect(group(m, "Go to")[2]).toEqual({ text: "Last error (1 in all): [edit: src/a.ts]", entryId: "r2" });
    expect(group(m, "Edits to a file")).toEqual([{ text: "src/a.ts (2 edits, the last)", entryId: "r2" }]);
    expect(group(m, "Compactions").map((i) => i.entryId)).toEqual(["C2", "C1"]);
    expect(group(m, "Compactions")[0]!.text).toMatch(/^\[compaction: 30k tokens\] · \w{3} \d+ \d\d:\d\d$/);
    expect(group(m, "Labels")).toEqual([{ text: "label: checkpoint", entryId: "u4" }]);
    expect(group(m, "Branch points")).toEqual([{ text: "branch point: 2 branches", entryId: "u1" }]);
    // The side branch's prompt is not a turn of the current path.
    expect(group(m, "Turns of the current path").map((i) => i.entryId)).toEqual(["u1", "u2", "u3", "u4", "u5"]);
  });
});
