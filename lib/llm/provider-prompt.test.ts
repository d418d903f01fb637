/** The hand-off to the provider interface (session-engine.md §3, "Hand-off to the AI SDK"). */
import { describe, expect, it } from "vitest";
import { assistant, call, img, toolResult, user } from "@/test/compaction-helpers";
import { IMAGE_UNAVAILABLE, INTERRUPTED_TOOL_RESULT, sniffImageType, toProviderPrompt } from "@/lib/llm/provider-prompt";
import type { AssistantMessage, LlmMessage } from "@/lib/session/types";

const toModelMessages = (messages: LlmMessage[]) => toProviderPrompt(undefined, messages);

describe("toProviderPrompt (session-engine.md §3)", () => {
  it("maps user text and images; a blob: reference becomes '[image unavailable]'", () => {
    const out = toModelMessages([
      user("plain"),
      user([{ type: "text", text: "look" }, img("aGVsbG8="), img("blob:sha256:abc")]),
    ]);
    expect(out).toEqual([
      { role: "user", content: [{ type: "text", text: "plain" }] },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "file", data: "aGVsbG8=", mediaType: "image/png" },
          { type: "text", text: IMAGE_UNAVAILABLE },
        ],
      },
    ]);
  });

  it("maps assistant text, thinking and tool calls in block order", () => {
    const msg = assistant("Reading it", { thinking: "need the file", calls: [call("t1", "read", { path: "a.ts" })] });
    msg.content[0] = { type: "thinking", thinking: "need the file", thinkingSignature: "sig-1" };
    const [out] = toModelMessages([msg, toolResult("t1", "body", { toolName: "read" })]);
    expect(out).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "need the file", providerOptions: { anthropic: { signature: "sig-1" } } },
        { type: "text", text: "Reading it" },
        { type: "tool-call", toolCallId: "t1", toolName: "read", input: { path: "a.ts" } },
      ],
    });
  });

  it("passes a thinking signature only to Anthropic", () => {
    const msg: AssistantMessage = { ...assistant("x", { thinking: "t" }), provider: "openai" };
    msg.content[0] = { type: "thinking", thinking: "t", thinkingSignature: "{\"id\":\"rs_1\"}" };
    expect(toModelMessages([msg])[0]).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "t" },
        { type: "text", text: "x" },
      ],
    });
  });

  it("merges consecutive results into one tool message ordered like the calls", () => {
    const out = toModelMessages([
      user("go"),
      assistant("", { calls: [call("a", "read", { path: "x" }), call("b", "bash", { command: "ls" })] }),
      toolResult("b", "listing", { toolName: "bash" }),
      toolResult("a", "contents", { toolName: "read" }),
      assistant("done"),
    ]);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(out[2]).toEqual({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "a", toolName: "read", output: { type: "text", value: "contents" } },
        { type: "tool-result", toolCallId: "b", toolName: "bash", output: { type: "text", value: "listing" } },
      ],
    });
  });

  it("sends an error result as error-text, and images in a result as content", () => {
    const failed = { ...toolResult("a", "boom", { toolName: "bash" }), isError: true };
    const withImage = toolResult("b", [{ type: "text", text: "shot" }, img("aW1n"), img("blob:sha256:x")], { toolName: "screenshot" });
    const out = toModelMessages([assistant("", { calls: [call("a", "bash"), call("b", "screenshot")] }), failed, withImage]);
    expect(out[1]).toEqual({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "a", toolName: "bash", output: { type: "error-text", value: "boom" } },
        {
          type: "tool-result",
          toolCallId: "b",
          toolName: "screenshot",
          output: {
            type: "content",
            value: [
              { type: "text", text: "shot" },
              { type: "image-data", data: "aW1n", mediaType: "image/png" },
              { type: "text", text: IMAGE_UNAVAILABLE },
            ],
          },
        },
      ],
    });
  });

  it("synthesizes an error result for a call with no result (aborted turn)", () => {
    const aborted = assistant("", { calls: [call("a", "read", { path: "x" }), call("b", "bash")], stopReason: "aborted" });
    const out = toModelMessages([user("go"), aborted, toolResult("a", "ok", { toolName: "read" }), user("what happened?")]);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(out[2]).toEqual({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "a", toolName: "read", output: { type: "text", value: "ok" } },
        { type: "tool-result", toolCallId: "b", toolName: "bash", output: { type: "error-text", value: INTERRUPTED_TOOL_RESULT } },
      ],
    });
  });

  it("synthesizes results when the history ends right after the calls", () => {
    const out = toModelMessages([user("go"), assistant("", { calls: [call("a", "read")] })]);
    expect(out.at(-1)).toMatchObject({ role: "tool", content: [{ toolCallId: "a", output: { type: "error-text" } }] });
  });

  it("keeps a result with no matching call as user text, so providers accept the history", () => {
    const out = toModelMessages([user("go"), toolResult("ghost", "stray output", { toolName: "bash" }), assistant("ok")]);
    expect(out).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "user", content: [{ type: "text", text: "[Tool result for bash (ghost)]: stray output" }] },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ]);
  });

  it("drops empty blocks and assistants left with nothing", () => {
    const empty = assistant("", { stopReason: "error" });
    const out = toModelMessages([user("a"), empty, assistant("", { thinking: "" }), user("b")]);
    expect(out).toEqual([
      { role: "user", content: [{ type: "text", text: "a" }] },
      { role: "user", content: [{ type: "text", text: "b" }] },
    ]);
  });

  it("leads with the system prompt when there is one", () => {
    expect(toProviderPrompt("Be brief", [user("hi")])).toEqual([
      { role: "system", content: "Be brief" },
      { role: "user", content: [{ type: "text", text: "hi" }] },
    ]);
  });

  it("gives an image the media type its bytes have", () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]).toString("base64");
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]).toString("base64");
    expect(sniffImageType(jpeg)).toBe("image/jpeg");
    expect(sniffImageType(png)).toBe("image/png");
    expect(sniffImageType("aGVsbG8=")).toBeUndefined();
    const [out] = toModelMessages([user([{ type: "image", data: jpeg, mimeType: "image/png" }])]);
    expect(out).toEqual({ role: "user", content: [{ type: "file", data: jpeg, mediaType: "image/jpeg" }] });
  });

  it("converts a message once and reuses it; another object (a pruned copy, another branch) is converted anew", () => {
    const result = toolResult("a", "long output", { toolName: "read" });
    const history = [user("go"), assistant("", { calls: [call("a", "read")] }), result];
    const first = toModelMessages(history);
    const second = toModelMessages([...history, user("more")]);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect((second[2] as { content: unknown[] }).content[0]).toBe((first[2] as { content: unknown[] }).content[0]);
    const pruned = { ...result, content: [{ type: "text" as const, text: "[Output truncated - 3 tokens]" }], prunedAt: 1 };
    const after = toModelMessages([history[0]!, history[1]!, pruned]);
    expect(after[2]).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "a", toolName: "read", output: { type: "text", value: "[Output truncated - 3 tokens]" } }],
    });
    // The same result object is an orphan in another history, and is sent as one there.
    expect(toModelMessages([user("go"), result])[1]).toEqual({
      role: "user",
      content: [{ type: "text", text: "[Tool result for read (a)]: long output" }],
    });
  });
});
