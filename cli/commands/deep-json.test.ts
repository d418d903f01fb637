/**
 * The CLI's file commands read session JSONL through lib/session/file/jsonl.ts: a line nested
 * 100,000 deep is reported as `file:line: JSON nested deeper than 256 levels` and the rest of
 * the file still loads, instead of "Maximum call stack size exceeded" with no line.
 */
import { describe, expect, it } from "vitest";
import { treeCommand } from "@/cli/commands/tree";
import { runCommand, tempDir } from "@/test/cli-helpers";

describe("deep JSON in a session file", () => {
  it("tree names the line and keeps going", async () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2025-05-01T09:00:00.000Z", cwd: "/w" });
    const deep = `{"type":"message","id":"d","parentId":null,"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const ok = JSON.stringify({
      type: "message",
      id: "u",
      parentId: null,
      timestamp: "2025-05-01T09:00:01.000Z",
      message: { role: "user", content: "hello", timestamp: 1 },
    });
    const file = tempDir().write("deep.jsonl", `${header}\n${deep}\n${ok}\n`);
    const run = await runCommand(treeCommand, [file]);
    expect(run.err).toBe(`${file}:2: JSON nested deeper than 256 levels\n`);
    expect(run.code).toBe(0);
    expect(run.out).toContain("hello");
  });
});
