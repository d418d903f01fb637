/**
 * The model provider receives, over HTTP, the same argument schemas the registry validates with:
 * a real turn through the openai-compatible provider against the fake model server.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useTestDatabase } from "@/test/db";
import { newSession, postChat, readAll, useHarness } from "@/test/chat-harness";
import { editTool } from "./edit";
import { findTool } from "./find";
import { grepTool } from "./grep";
import { lsTool } from "./ls";
import { readTool } from "./read";
import { writeTool } from "./write";

useTestDatabase();
const h = useHarness();

interface SentTool {
  type: string;
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

describe("the tools a turn sends to the provider", () => {
  it("carry each tool's zod schema as JSON Schema, unchanged on the way", async () => {
    const s = await newSession();
    h.fake.script({ text: "Nothing to do." });
    await readAll(await postChat(s.id, "hello"));
    const sent = (h.fake.requests.at(-1)?.tools ?? []) as SentTool[];
    const byName = new Map(sent.map((t) => [t.function.name, t.function]));
    const tools = [readTool, writeTool, editTool, lsTool, findTool, grepTool];
    expect([...byName.keys()].sort()).toEqual(tools.map((t) => t.name).sort());
    for (const tool of tools) {
      const { $schema: _tag, ...expected } = z.toJSONSchema(tool.schema);
      expect(byName.get(tool.name)?.description).toBe(tool.description);
      expect(byName.get(tool.name)?.parameters).toEqual(expected);
    }
  });
});
