import { describe, expect, it } from "vitest";
import { compactionCandidates } from "@/lib/agent/model-candidates";
import { ScriptedModel, StaticResolver } from "@/test/agent-harness";

const m = (provider: string, id: string, contextWindow: number, hasApiKey = true) =>
  new ScriptedModel({ provider, id, contextWindow, hasApiKey });

describe("compactionCandidates (session-engine.md §13.3 step 5)", () => {
  const current = m("anthropic", "sonnet", 200_000);
  const smol = m("openai", "mini", 128_000);
  const slow = m("anthropic", "opus", 200_000);
  const locked = m("google", "gemini", 1_000_000, false);
  const wide = m("xai", "grok", 256_000);
  const wider = m("moonshot", "kimi", 400_000);
  const resolver = new StaticResolver([current, smol, slow, locked, wide, wider]);

  it("roles in order, then the largest available window not listed, skipping models without a key", async () => {
    const list = await compactionCandidates(
      current,
      { smol: "openai/mini", slow: "anthropic/opus", plan: "openai/mini", commit: "google/gemini" },
      resolver,
    );
    // default → current; plan duplicates smol; commit (gemini) is listed, so the largest
    // unlisted model is kimi; gemini is then dropped for its missing key.
    expect(list.map((x) => x.info.ref)).toEqual(["anthropic/sonnet", "openai/mini", "anthropic/opus", "moonshot/kimi"]);
  });

  it("default resolves its own role when set, and an unresolvable ref is skipped", async () => {
    const list = await compactionCandidates(current, { default: "xai/grok", smol: "nobody/none" }, resolver);
    // The largest unlisted model is the keyless gemini, which is then skipped.
    expect(list.map((x) => x.info.ref)).toEqual(["xai/grok"]);
  });

  it("the largest-window pick is made before the key filter (a keyless giant is not replaced)", async () => {
    const list = await compactionCandidates(current, {}, resolver);
    expect(list.map((x) => x.info.ref)).toEqual(["anthropic/sonnet"]);
  });

  it("is empty without a current model, roles or available models", async () => {
    expect(await compactionCandidates(undefined, {}, new StaticResolver([]))).toEqual([]);
  });
});
