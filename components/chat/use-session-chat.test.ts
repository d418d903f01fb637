import { describe, expect, it } from "vitest";
import type { SessionUIMessage } from "@/lib/chat-protocol/ui-types";
import { liveParts } from "./use-session-chat";

describe("liveParts (the streamed copy of the step being generated)", () => {
  const msg = (parts: SessionUIMessage["parts"]): SessionUIMessage[] => [{ id: "a", role: "assistant", parts }];
  const twoSteps = msg([
    { type: "step-start" },
    { type: "text", text: "first step" },
    { type: "step-start" },
    { type: "text", text: "second step" },
  ]);
  it("shows the parts after the last step start while that step is unsaved", () => {
    expect(liveParts(twoSteps, 1)).toEqual([{ type: "text", text: "second step" }]);
  });
  it("shows nothing once the step's entry is saved, so it never appears twice", () => {
    expect(liveParts(twoSteps, 2)).toEqual([]);
  });
  it("shows nothing for a user message", () => {
    expect(liveParts([{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }])).toEqual([]);
  });
});
