/** The hand-off to the provider interface (session-engine.md §3, "Hand-off to the AI SDK"). */
import { describe, expect, it } from "vitest";
import { assistant, call, img, toolResult, user } from "@/test/compaction-helpers";
import { IMAGE_UNAVAILABLE, INTERRUPTED_TOOL_RESULT, sniffImageType, toProviderPrompt } from "@/lib/llm/provider-prompt";
import type { AssistantMessage, LlmMessage, ToolResultMessage } from "@/lib/session/types";

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

  it("reuses the previous call only for the unchanged prefix: a prune, a branch switch, new results or another system prompt convert anew", () => {
    // Seeded pseudo-random histories; each call with a warm previous call must equal a cold conversion of the same history.
    let seed = 12;
    const rand = (n: number) => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    let ids = 0;
    const cold = (system: string | undefined, messages: LlmMessage[]) => toProviderPrompt(system, structuredClone(messages));
    const grow = (messages: LlmMessage[], steps: number) => {
      for (let k = 0; k < steps; k++) {
        const kind = rand(4);
        if (kind === 0) messages.push(user(`u${ids++}`));
        else if (kind === 1) messages.push(assistant(`a${ids++}`));
        else {
          const calls = [call(`c${ids++}`, "read"), call(`c${ids++}`, "grep")];
          messages.push(assistant("", { calls }));
          // Sometimes a call is still unanswered (the history ends on it, or a turn was aborted).
          for (const c of calls) if (rand(3) > 0) messages.push(toolResult(c.id, `out ${c.id}`, { toolName: c.name }));
        }
      }
      return messages;
    };
    for (let round = 0; round < 60; round++) {
      const history = grow([user("start")], 3 + rand(8));
      const system = rand(2) ? "SYS" : undefined;
      expect(toProviderPrompt(system, history)).toEqual(cold(system, history));
      for (let turn = 0; turn < 6; turn++) {
        const change = rand(6) === 5 ? 3 : rand(5);
        if (change === 0) grow(history, 1 + rand(3));
        else if (change === 1) {
          // A branch switch: back to an earlier point, then other messages.
          history.length = 1 + rand(history.length);
          grow(history, 1 + rand(3));
        } else if (change === 2) {
          // A prune rewrites a result into a new object.
          const at = history.findIndex((m) => m.role === "toolResult");
          if (at >= 0) history[at] = { ...(history[at] as ToolResultMessage), content: [{ type: "text", text: "[pruned]" }], prunedAt: 1 };
        } else if (change === 3) {
          // The missing answers to the trailing assistant's calls arrive.
          let at = history.length - 1;
          while (at > 0 && history[at]?.role === "toolResult") at--;
          const last = history[at];
          const answered = new Set(history.slice(at + 1).map((m) => (m as ToolResultMessage).toolCallId));
          if (last?.role === "assistant") {
            for (const b of last.content) if (b.type === "toolCall" && !answered.has(b.id)) history.push(toolResult(b.id, `late ${b.id}`, { toolName: b.name }));
          }
        }
        const sys = change === 4 ? "OTHER" : system;
        expect(toProviderPrompt(sys, history)).toEqual(cold(sys, history));
      }
    }
  });

  it("sends the results that arrived for calls the previous call had to answer as interrupted", () => {
    const history: LlmMessage[] = [user("go"), assistant("", { calls: [call("a", "read")] })];
    expect(toModelMessages(history)[2]).toMatchObject({ content: [{ output: { type: "error-text", value: INTERRUPTED_TOOL_RESULT } }] });
    history.push(toolResult("a", "contents", { toolName: "read" }));
    expect(toModelMessages(history)).toHaveLength(3);
    expect(toModelMessages(history)[2]).toMatchObject({ content: [{ output: { type: "text", value: "contents" } }] });
  });

  it("hands each caller its own prompt array", () => {
    const history = [user("go"), assistant("ok")];
    const first = toModelMessages(history);
    first.push({ role: "user", content: [{ type: "text", text: "added by a caller" }] });
    expect(toModelMessages(history)).toHaveLength(2);
  });
});
