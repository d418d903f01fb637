import { describe, expect, it } from "vitest";
import {
  addFileListDetails,
  computeFileLists,
  createFileOps,
  extractFileOpsFromMessage,
  formatFileOperations,
} from "@/lib/compaction/file-ops";
import { assistant, call, toolResult, user } from "@/test/compaction-helpers";

describe("file-operation tracking (session-engine.md §10)", () => {
  it("createFileOps starts with three empty sets", () => {
    const ops = createFileOps();
    expect([ops.read.size, ops.written.size, ops.edited.size]).toEqual([0, 0, 0]);
  });

  it("records read/write/edit paths from assistant tool calls only", () => {
    const ops = createFileOps();
    extractFileOpsFromMessage(
      assistant("", {
        calls: [
          call("1", "read", { path: "a.ts" }),
          call("2", "write", { path: "b.ts", content: "x" }),
          call("3", "edit", { path: "c.ts" }),
          call("4", "bash", { path: "d.ts", command: "cat e.ts" }),
          call("5", "read", { path: "" }),
          call("6", "read", { file: "f.ts" }),
          call("7", "edit", { path: 42 }),
        ],
      }),
      ops,
    );
    extractFileOpsFromMessage(user("read g.ts"), ops);
    extractFileOpsFromMessage(toolResult("1", "h.ts"), ops);
    expect([...ops.read]).toEqual(["a.ts"]);
    expect([...ops.written]).toEqual(["b.ts"]);
    expect([...ops.edited]).toEqual(["c.ts"]);
  });

  it("computeFileLists: modified = edited ∪ written, read excludes modified, both sorted by code unit", () => {
    const ops = createFileOps();
    for (const f of ["z.ts", "B.ts", "a.ts", "shared.ts"]) ops.read.add(f);
    ops.edited.add("shared.ts");
    ops.edited.add("y.ts");
    ops.written.add("Y.ts");
    ops.written.add("y.ts");
    expect(computeFileLists(ops)).toEqual({ readFiles: ["B.ts", "a.ts", "z.ts"], modifiedFiles: ["Y.ts", "shared.ts", "y.ts"] });
  });

  it("formatFileOperations uses pi's format and leaves out empty sections (§18.1)", () => {
    expect(formatFileOperations([], [])).toBe("");
    expect(formatFileOperations(["a", "b"], ["c"])).toBe(
      "\n\n<read-files>\na\nb\n</read-files>\n\n<modified-files>\nc\n</modified-files>",
    );
    expect(formatFileOperations(["a"], [])).toBe("\n\n<read-files>\na\n</read-files>");
    expect(formatFileOperations([], ["c", "d"])).toBe("\n\n<modified-files>\nc\nd\n</modified-files>");
  });

  it("addFileListDetails seeds read and edited from stored details, skipping bad shapes", () => {
    const ops = createFileOps();
    addFileListDetails({ readFiles: ["r", 3], modifiedFiles: ["m"] }, ops);
    addFileListDetails({ readFiles: "nope", modifiedFiles: null }, ops);
    addFileListDetails(null, ops);
    expect([...ops.read]).toEqual(["r"]);
    expect([...ops.edited]).toEqual(["m"]);
    expect(ops.written.size).toBe(0);
  });
});
