import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentTools } from "@/lib/agent/ports";
import type { ToolCall } from "@/lib/session/types";
import { editTool } from "./edit";
import { findTool } from "./find";
import { grepTool } from "./grep";
import { DEFAULT_LIMITS } from "./limits";
import { lsTool } from "./ls";
import { readTool } from "./read";
import { createWorkspaceTools, TOOL_NAMES } from "./registry";
import { callTool, makeSandbox, put, type Sandbox } from "@/test/tools-sandbox";
import { writeTool } from "./write";

let sb: Sandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

const call = (name: string, args: Record<string, unknown>): ToolCall => ({ type: "toolCall", id: "c1", name, arguments: args });
const live = () => new AbortController().signal;

describe("createWorkspaceTools", () => {
  it("satisfies the AgentTools port with one definition per tool, in a fixed order", () => {
    const tools: AgentTools = createWorkspaceTools({ root: sb.root });
    expect(tools.definitions.map((d) => d.name)).toEqual(["read", "write", "edit", "ls", "find", "grep"]);
    for (const d of tools.definitions) {
      expect(d.description.length).toBeGreaterThan(20);
      expect(d.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
    }
    expect(tools.definitions.find((d) => d.name === "bash")).toBeUndefined();
  });

  it("offers each tool's arguments as the JSON Schema of the zod schema it parses them with", () => {
    const definitions = createWorkspaceTools({ root: sb.root }).definitions;
    for (const tool of [readTool, writeTool, editTool, lsTool, findTool, grepTool]) {
      const { $schema: _tag, ...generated } = z.toJSONSchema(tool.schema);
      expect(definitions.find((d) => d.name === tool.name)?.inputSchema).toEqual(generated);
    }
    // What the model reads: every argument described, the required ones listed, limits stated.
    expect(definitions.find((d) => d.name === "read")?.inputSchema).toMatchObject({
      type: "object",
      required: ["path"],
      additionalProperties: false,
      properties: {
        path: { type: "string", minLength: 1, description: "File path relative to the workspace root" },
        offset: { type: "integer", minimum: 1, description: "1-based line to start at (default 1)" },
      },
    });
  });

  it("offers only the enabled tools and refuses the others", async () => {
    const tools = createWorkspaceTools({ root: sb.root, enabled: ["ls", "read"] });
    expect(tools.definitions.map((d) => d.name)).toEqual(["read", "ls"]);
    const r = await tools.execute(call("write", { path: "x", content: "y" }), live());
    expect(r.isError).toBe(true);
    expect(r.content).toEqual([{ type: "text", text: 'Tool "write" is not enabled for this session. Available tools: read, ls' }]);
    expect(await readdir(sb.root)).toEqual([]);
    expect(() => createWorkspaceTools({ root: sb.root, enabled: ["bash" as never] })).toThrow(/unknown tool "bash"/);
  });

  it('returns "Unknown tool …" for a tool that does not exist', async () => {
    const r = await callTool(sb.root, "bash", { command: "cat /etc/passwd" });
    expect(r).toMatchObject({ isError: true, text: 'Unknown tool "bash". Available tools: read, write, edit, ls, find, grep' });
  });

  it("reports invalid arguments naming the field", async () => {
    const missing = await callTool(sb.root, "read", {});
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^Invalid arguments for read: path: /);
    const wrongType = await callTool(sb.root, "read", { path: "a", offset: "3" });
    expect(wrongType.text).toMatch(/^Invalid arguments for read: offset: .*expected number/);
    const notInt = await callTool(sb.root, "read", { path: "a", limit: 0 });
    expect(notInt.text).toMatch(/limit: /);
    const grep = await callTool(sb.root, "grep", { pattern: 42 });
    expect(grep.text).toMatch(/^Invalid arguments for grep: pattern: /);
    const write = await callTool(sb.root, "write", { path: "a.txt" });
    expect(write.text).toMatch(/^Invalid arguments for write: content: /);
  });

  it("passes results and details through", async () => {
    await put(sb.root, { "a.txt": "x\n" });
    const tools = createWorkspaceTools({ root: sb.root });
    const r = await tools.execute(call("edit", { path: "a.txt", oldText: "x", newText: "y" }), live());
    expect(r.isError).toBe(false);
    expect(r.content).toEqual([{ type: "text", text: "Edited a.txt: replaced 1 line with 1 line at line 1" }]);
    expect(r.details).toMatchObject({ path: "a.txt", firstChangedLine: 1 });
    expect((r.details as { diff: string }).diff).toContain("-x\n+y");
  });

  it("reports an already-aborted signal without touching the disk", async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await callTool(sb.root, "write", { path: "a.txt", content: "x" }, { signal: ac.signal });
    expect(r).toMatchObject({ isError: true, text: "Tool call write aborted", details: { aborted: true } });
    expect(await readdir(sb.root)).toEqual([]);
  });

  it("stops a running walk when the signal aborts mid-call", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`d${i}/f.txt`] = "match\n";
    await put(sb.root, files);
    const ac = new AbortController();
    const tools = createWorkspaceTools({ root: sb.root });
    const pending = tools.execute(call("grep", { pattern: "match" }), ac.signal);
    ac.abort(); // lands while execute awaits the file system
    expect(await pending).toMatchObject({ isError: true, content: [{ type: "text", text: "Tool call grep aborted" }] });
    const pendingFind = tools.execute(call("find", { pattern: "*.txt" }), ac.signal);
    expect((await pendingFind).isError).toBe(true);
  });

  it("aborts the tools' own run() with an AbortError", async () => {
    const ac = new AbortController();
    ac.abort();
    const ctx = { root: sb.root, limits: DEFAULT_LIMITS, signal: ac.signal };
    await expect(lsTool.run({}, ctx)).rejects.toMatchObject({ name: "AbortError" });
    await expect(findTool.run({ pattern: "*" }, ctx)).rejects.toMatchObject({ name: "AbortError" });
    await put(sb.root, { "a.txt": "x" });
    await expect(readTool.run({ path: "a.txt" }, ctx)).rejects.toMatchObject({ name: "AbortError" });
  });

  it("reports a missing workspace folder instead of throwing", async () => {
    const root = path.join(sb.base, "gone");
    const r = await callTool(root, "ls", {});
    expect(r).toMatchObject({ isError: true, text: `The workspace folder ${JSON.stringify(root)} is missing` });
  });

  it("exports the tool names", () => {
    expect(TOOL_NAMES).toEqual(["read", "write", "edit", "ls", "find", "grep"]);
  });
});
