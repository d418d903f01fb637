/** Tool-call headers in the chat: `read(src/a.ts)`, whatever agent wrote the session. */
import { describe, expect, it } from "vitest";
import { HEADER_ARG_CHARS, toolHeader } from "./tool-header";

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

describe("toolHeader", () => {
  it("names the file of read / write / edit, relative to the session's folder, with pi's read range", () => {
    expect(toolHeader(call("read", { path: "/repo/src/a.ts" }), "/repo")).toBe("read(src/a.ts)");
    expect(toolHeader(call("read", { path: "/repo/src/a.ts", offset: 10, limit: 5 }), "/repo")).toBe("read(src/a.ts:10-14)");
    expect(toolHeader(call("Edit", { file_path: "/repo/CLAUDE.md", old_string: "a", new_string: "b" }), "/repo/")).toBe("Edit(CLAUDE.md)");
    expect(toolHeader(call("Write", { file_path: "/elsewhere/x.md", content: "…" }), "/repo")).toBe("Write(/elsewhere/x.md)");
  });

  it("shows a shell command on one line, Codex's bash -lc script as the command", () => {
    expect(toolHeader(call("Bash", { command: "npm test\n  -- --run" }))).toBe("Bash(npm test -- --run)");
    expect(toolHeader(call("shell", { command: ["bash", "-lc", "rg -n foo"] }))).toBe("shell(rg -n foo)");
    expect(toolHeader(call("exec_command", { cmd: "ls" }))).toBe("exec_command(ls)");
  });

  it("shows searches, subagent tasks, plans and patches by what they are about", () => {
    expect(toolHeader(call("Grep", { pattern: "TODO", path: "/repo/lib" }), "/repo")).toBe("Grep(TODO in lib)");
    expect(toolHeader(call("Task", { description: "Explore codebase", prompt: "long…", subagent_type: "Explore" }))).toBe("Task(Explore codebase)");
    expect(toolHeader(call("TodoWrite", { todos: [{}, {}, {}] }))).toBe("TodoWrite(3 items)");
    expect(toolHeader(call("apply_patch", { input: "*** Begin Patch\n*** Update File: /repo/a.ts\n*** Add File: /repo/b.ts\n*** End Patch" }), "/repo")).toBe(
      "apply_patch(a.ts, b.ts)",
    );
  });

  it("clips a long argument and never prints the arguments as JSON", () => {
    const h = toolHeader(call("Bash", { command: "x".repeat(300) }));
    expect(h.length).toBe("Bash()".length + HEADER_ARG_CHARS);
    expect(h.endsWith("…)")).toBe(true);
    expect(toolHeader(call("mystery", { a: { nested: true } }))).toBe("mystery()");
    expect(toolHeader(call("custom", { id: 7 }))).toBe("custom(7)");
  });
});
