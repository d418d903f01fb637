/**
 * The next turn's model as the page shows it (docs/ui.md "The session workspace"): the model picker's value and the
 * context meter's window come from the same selection the turn makes, and an imported session
 * goes on with its own model where that provider is configured.
 */
import { describe, expect, it } from "vitest";
import { createProviderRegistry } from "@/lib/llm/providers";
import { assistantEntry, modelChangeEntry, userEntry } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";
import { sessionModelRef } from "./model-selection";
import { nextTurnModel } from "./next-model";

/** An imported pi session whose assistant ran on anthropic/claude-opus-4-5. */
const opusPath: SessionEntry[] = [userEntry("u1", null, "hello"), assistantEntry("a1", "u1", "hi", { provider: "anthropic", model: "claude-opus-4-5" })];

/** How the page names anthropic/claude-opus-4-5, from the model catalogue. */
const OPUS = {
  ref: "anthropic/claude-opus-4-5",
  id: "claude-opus-4-5",
  provider: "anthropic",
  label: "Claude Opus 4.5",
  contextWindow: 200_000,
  windowAssumed: false,
  offline: false,
};

describe("sessionModelRef (session-engine.md §3 models.default)", () => {
  it("is the last assistant's provider/model, or a later default-role model_change", () => {
    expect(sessionModelRef(opusPath)).toBe("anthropic/claude-opus-4-5");
    const switched = [...opusPath, modelChangeEntry("m1", "a1", "openai/gpt-5")];
    expect(sessionModelRef(switched)).toBe("openai/gpt-5");
    expect(sessionModelRef([userEntry("u", null, "x")])).toBeUndefined();
  });

  it("does not count the offline model as the session's model", () => {
    const offline = [userEntry("u1", null, "x"), assistantEntry("a1", "u1", "y", { provider: "offline", model: "offline" })];
    expect(sessionModelRef(offline)).toBeUndefined();
  });
});

describe("nextTurnModel", () => {
  it("an imported claude-opus-4-5 session measures against claude-opus-4-5's 200k where Anthropic is configured", () => {
    const registry = createProviderRegistry({ anthropic: { apiKey: "sk-ant-test" }, openai: { apiKey: "sk-test" } });
    expect(nextTurnModel(registry, {}, opusPath)).toEqual({ ...OPUS, session: { ...OPUS, available: true } });
  });

  it("a model chosen in the picker wins over the session's own", () => {
    const registry = createProviderRegistry({ anthropic: { apiKey: "sk-ant-test" }, openai: { apiKey: "sk-test" } });
    const m = nextTurnModel(registry, { agent: { chatModel: "openai/gpt-4o" } }, opusPath);
    expect(m).toMatchObject({ ref: "openai/gpt-4o", contextWindow: 128_000, windowAssumed: false, picked: true });
    expect(m.session).toMatchObject({ ref: "anthropic/claude-opus-4-5", contextWindow: 200_000 });
  });

  it("without the session's provider the next turn uses the default model, and the offline window is assumed", () => {
    const registry = createProviderRegistry({});
    const m = nextTurnModel(registry, {}, opusPath);
    expect(m).toMatchObject({ ref: "offline/offline", offline: true, windowAssumed: true, contextWindow: 128_000 });
    expect(m.picked).toBeUndefined();
    // The meter still knows the session's own model and window, from the model catalogue.
    expect(m.session).toEqual({ ...OPUS, available: false });
  });

  it("an unknown model on a compatible server says its window is assumed unless configured", () => {
    const unknown = createProviderRegistry({ compatible: { baseURL: "http://127.0.0.1:9/v1", models: ["my-local-model"] } });
    expect(nextTurnModel(unknown, {}, [])).toMatchObject({ id: "my-local-model", windowAssumed: true, contextWindow: 128_000 });
    const configured = createProviderRegistry({ compatible: { baseURL: "http://127.0.0.1:9/v1", models: ["my-local-model"], contextWindow: 32_000 } });
    expect(nextTurnModel(configured, {}, [])).toMatchObject({ id: "my-local-model", windowAssumed: false, contextWindow: 32_000 });
  });
});
