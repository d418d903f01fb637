import { describe, expect, it } from "vitest";
import { RETRY_CANCELLED } from "@/lib/agent/turn-retry";
import type { SessionAgent } from "@/lib/agent/session-agent";
import { setup } from "@/test/agent-harness";
import type { AssistantMessage } from "@/lib/session/types";

const RATE_LIMITED = "429 Too Many Requests; retry-after: 7";
const UNAVAILABLE = "503 Service Unavailable";

const isErrorAssistant = (m: { role: string }) => m.role === "assistant" && (m as AssistantMessage).stopReason === "error";

describe("turn retries (session-engine.md §13.5)", () => {
  it("retries a 429 after at least its retry-after, then reports success", async () => {
    const { agent, store, model, ofType, delays } = setup();
    model!.script({ stopReason: "error", errorMessage: RATE_LIMITED }, { text: "ok" });

    const last = await agent.prompt("hi");

    expect(last?.content).toEqual([{ type: "text", text: "ok" }]);
    // 2000 · 2^0 = 2000 < 7000: the provider's retry-after is the floor.
    expect(ofType("auto_retry_start")).toEqual([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 7000, errorMessage: RATE_LIMITED },
    ]);
    expect(delays).toEqual([7000]);
    expect(ofType("auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 1 }]);
    // The error stays stored (the retry is its child) but is not sent again.
    const stored = store.getEntries();
    expect(stored.map((e) => (e.type === "message" ? e.message.role : e.type))).toEqual(["user", "assistant", "assistant"]);
    expect(stored[2]?.parentId).toBe(stored[1]?.id);
    expect(model!.requests[1]!.messages.some(isErrorAssistant)).toBe(false);
    expect(model!.requests[1]!.messages.map((m) => m.role)).toEqual(["user"]);
    expect(ofType("auto_compaction_start")).toHaveLength(0);
  });

  it("counts attempts with exponential delays", async () => {
    const { agent, model, ofType, delays } = setup();
    model!.script({ stopReason: "error", errorMessage: UNAVAILABLE }, { stopReason: "error", errorMessage: UNAVAILABLE }, { text: "ok" });
    await agent.prompt("hi");
    expect(ofType("auto_retry_start").map((e) => [e.attempt, e.delayMs])).toEqual([
      [1, 2000],
      [2, 4000],
    ]);
    expect(delays).toEqual([2000, 4000]);
    expect(ofType("auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 2 }]);
  });

  it("gives up after maxRetries with a failure event", async () => {
    const { agent, model, ofType } = setup({ settings: { retry: { maxRetries: 2 } } });
    model!.script(
      { stopReason: "error", errorMessage: UNAVAILABLE },
      { stopReason: "error", errorMessage: UNAVAILABLE },
      { stopReason: "error", errorMessage: UNAVAILABLE },
    );
    const last = await agent.prompt("hi");
    expect(last?.stopReason).toBe("error");
    expect(model!.requests).toHaveLength(3);
    expect(ofType("auto_retry_start").map((e) => e.attempt)).toEqual([1, 2]);
    expect(ofType("auto_retry_end")).toEqual([
      { type: "auto_retry_end", success: false, attempt: 2, finalError: UNAVAILABLE },
    ]);
  });

  it("an abort during the wait ends with 'Retry cancelled'", async () => {
    let agentRef: SessionAgent | undefined;
    const { agent, model, ofType } = setup({ onSleep: () => agentRef?.abort() });
    agentRef = agent;
    model!.script({ stopReason: "error", errorMessage: UNAVAILABLE }, { text: "never sent" });
    await agent.prompt("hi");
    expect(model!.requests).toHaveLength(1);
    expect(ofType("auto_retry_end")).toEqual([
      { type: "auto_retry_end", success: false, attempt: 1, finalError: RETRY_CANCELLED },
    ]);
    expect(RETRY_CANCELLED).toBe("Retry cancelled");
  });

  it("does not retry when retry.enabled is false, nor non-retryable errors", async () => {
    const disabled = setup({ settings: { retry: { enabled: false } } });
    disabled.model!.script({ stopReason: "error", errorMessage: UNAVAILABLE });
    await disabled.agent.prompt("hi");
    expect(disabled.ofType("auto_retry_start")).toHaveLength(0);

    const fatal = setup();
    fatal.model!.script({ stopReason: "error", errorMessage: "401 invalid x-api-key" });
    await fatal.agent.prompt("hi");
    expect(fatal.ofType("auto_retry_start")).toHaveLength(0);
    expect(fatal.model!.requests).toHaveLength(1);
  });
});
