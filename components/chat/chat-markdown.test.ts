/** Chat items as Markdown ("Copy message", "Copy as Markdown"). */
import { describe, expect, it } from "vitest";
import { assistant, call, linked, msg, toolResult, user } from "@/test/compaction-helpers";
import { buildChatItems } from "./chat-items";
import { conversationMarkdown, itemMarkdown } from "./chat-markdown";

describe("conversationMarkdown", () => {
  it("reads as the conversation: words, tool calls as headers, preambles named not pasted", () => {
    const path = linked(
      msg("p", user("<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>")),
      msg("u", user("Fix the test")),
      msg("a", assistant("Looking.", { calls: [call("c1", "read", { path: "/repo/src/a.ts" })] })),
      msg("t", toolResult("c1", "file body that is not copied")),
      msg("a2", assistant("Done.")),
    );
    const { items } = buildChatItems(path);
    const md = conversationMarkdown(items, "/repo");
    expect(md).toBe(
      "## User\n\n_(System · environment context)_\n\n## User\n\nFix the test\n\n## Assistant\n\nLooking.\n\n`read(src/a.ts)`\n\n## Assistant\n\nDone.\n",
    );
    expect(md).not.toContain("file body");
    expect(itemMarkdown(items[1]!)).toBe("Fix the test");
  });
});
