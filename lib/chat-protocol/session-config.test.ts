/** The session settings column: reading it (never fails) and updating it (validated, merged per key). */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "@/lib/settings";
import { readSessionConfig, updateSessionConfig } from "./session-config";

describe("readSessionConfig", () => {
  it("merges the engine override onto the defaults and splits off the agent options", () => {
    const config = readSessionConfig({
      compaction: { reserveTokens: 1000 },
      agent: { chatModel: "openai/gpt-4o", tools: { enabled: ["read"] } },
    });
    expect(config.settings.compaction).toEqual({ ...DEFAULT_SETTINGS.compaction, reserveTokens: 1000 });
    expect(config.agent).toEqual({ chatModel: "openai/gpt-4o", tools: { enabled: ["read"] } });
    expect(config.override).toEqual({ compaction: { reserveTokens: 1000 } });
    expect(config.warnings).toEqual([]);
  });

  it("falls back to the defaults for a broken part and says why", () => {
    const config = readSessionConfig({ compaction: { reserveTokens: "lots" }, agent: { tools: { enabled: ["bash"] } } });
    expect(config.settings).toEqual(DEFAULT_SETTINGS);
    expect(config.agent).toEqual({});
    expect(config.warnings).toHaveLength(2);
    expect(config.warnings[0]).toContain("compaction.reserveTokens");
    expect(readSessionConfig(null)).toMatchObject({ settings: DEFAULT_SETTINGS, agent: {}, warnings: [] });
  });
});

describe("updateSessionConfig", () => {
  it("sets, keeps and removes keys; an emptied document is null", () => {
    const first = updateSessionConfig(null, { settings: { retry: { maxRetries: 1 }, compaction: { autoContinue: false } } });
    expect(first).toMatchObject({ ok: true, stored: { retry: { maxRetries: 1 }, compaction: { autoContinue: false } } });
    if (!first.ok) return;
    const second = updateSessionConfig(first.stored, { settings: { retry: { maxRetries: null } }, compactionModel: "openai/gpt-4o" });
    expect(second).toMatchObject({ ok: true, stored: { compaction: { autoContinue: false }, agent: { compactionModel: "openai/gpt-4o" } } });
    if (!second.ok) return;
    expect(second.config.settings.retry).toEqual(DEFAULT_SETTINGS.retry);
    const third = updateSessionConfig(second.stored, { settings: null, compactionModel: null });
    expect(third).toMatchObject({ ok: true, stored: null });
  });

  it("names every offending field", () => {
    const result = updateSessionConfig(null, {
      settings: { retry: { maxRetries: 99 }, compaction: { remoteEndpoint: "ftp://x" } },
      chatModel: "nope",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path).sort()).toEqual(["chatModel", "compaction.remoteEndpoint", "retry.maxRetries"]);
    expect(result.errors.find((e) => e.path === "retry.maxRetries")?.message).toBe("retry.maxRetries: expected an integer from 0 to 10");
  });
});
