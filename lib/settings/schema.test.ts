import { describe, expect, it } from "vitest";
import { mergeSettings, parseSettings, parseSettingsOverride } from "@/lib/settings/parse";
import {
  BRANCH_SUMMARY_MAX_TOKENS,
  CONTINUATION_DELAY_MS,
  DEFAULT_COMPACTION_SETTINGS,
  DEFAULT_SETTINGS,
  defaultSettings,
  FALLBACK_CONTEXT_WINDOW,
  MAX_RETRY_DELAY_MS,
  MODEL_ROLES,
} from "@/lib/settings/schema";

function errorsOf(input: unknown) {
  const r = parseSettings(input);
  if (r.ok) throw new Error("expected invalid settings");
  return r.errors;
}

describe("settings defaults (session-engine.md §15)", () => {
  it("fills every key from an empty document", () => {
    const r = parseSettings({});
    expect(r).toEqual({
      ok: true,
      settings: {
        compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000, autoContinue: true },
        branchSummary: { enabled: true, reserveTokens: 16384 },
        retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000 },
        modelRoles: {},
      },
    });
    if (r.ok) expect("remoteEndpoint" in r.settings.compaction).toBe(false);
  });

  it("treats undefined and null input as an empty document", () => {
    expect(parseSettings(undefined)).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
    expect(parseSettings(null)).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
  });

  it("exports the compaction defaults exactly as the spec lists them", () => {
    expect(DEFAULT_COMPACTION_SETTINGS).toEqual({
      enabled: true,
      reserveTokens: 16384,
      keepRecentTokens: 20000,
      autoContinue: true,
    });
    expect(DEFAULT_SETTINGS.compaction).toEqual(DEFAULT_COMPACTION_SETTINGS);
  });

  it("branch summaries are on by default (session-engine.md §18.8)", () => {
    expect(DEFAULT_SETTINGS.branchSummary.enabled).toBe(true);
  });

  it("DEFAULT_SETTINGS is frozen; defaultSettings() returns a fresh copy", () => {
    expect(Object.isFrozen(DEFAULT_SETTINGS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_SETTINGS.compaction)).toBe(true);
    const a = defaultSettings();
    a.retry.maxRetries = 9;
    expect(defaultSettings().retry.maxRetries).toBe(3);
  });

  it("exports the fixed constants", () => {
    expect(MAX_RETRY_DELAY_MS).toBe(30_000);
    expect(CONTINUATION_DELAY_MS).toBe(100);
    expect(BRANCH_SUMMARY_MAX_TOKENS).toBe(2048);
    expect(FALLBACK_CONTEXT_WINDOW).toBe(128000);
    expect(MODEL_ROLES).toEqual(["default", "smol", "slow", "plan", "commit"]);
  });

  it("keeps given values and defaults the rest of a section", () => {
    const r = parseSettings({ compaction: { reserveTokens: 8000 }, modelRoles: { smol: "openai/gpt-4o-mini" } });
    expect(r.ok && r.settings.compaction).toEqual({ ...DEFAULT_COMPACTION_SETTINGS, reserveTokens: 8000 });
    expect(r.ok && r.settings.modelRoles).toEqual({ smol: "openai/gpt-4o-mini" });
  });

  it("accepts a remote endpoint URL and model ids containing slashes", () => {
    const r = parseSettings({
      compaction: { remoteEndpoint: "https://summaries.example.com/v1/compact" },
      modelRoles: { default: "openrouter/anthropic/claude-sonnet-4.5" },
    });
    expect(r.ok && r.settings.compaction.remoteEndpoint).toBe("https://summaries.example.com/v1/compact");
    expect(r.ok && r.settings.modelRoles.default).toBe("openrouter/anthropic/claude-sonnet-4.5");
  });
});

describe("settings validation (session-engine.md §15)", () => {
  it("names the field in each message", () => {
    expect(errorsOf({ compaction: { reserveTokens: -5 } })).toEqual([
      { path: "compaction.reserveTokens", message: "compaction.reserveTokens: expected a positive integer" },
    ]);
    expect(errorsOf({ compaction: { keepRecentTokens: 1.5 } })[0]?.message).toBe(
      "compaction.keepRecentTokens: expected a positive integer",
    );
    expect(errorsOf({ branchSummary: { reserveTokens: "big" } })[0]?.message).toBe(
      "branchSummary.reserveTokens: expected a positive integer",
    );
  });

  it("rejects unknown keys at the root and inside sections", () => {
    expect(errorsOf({ compaction: { enable: true }, theme: "dark" })).toEqual([
      { path: "compaction.enable", message: "compaction.enable: unknown setting" },
      { path: "theme", message: "theme: unknown setting" },
    ]);
    expect(errorsOf({ modelRoles: { fast: "a/b" } })[0]?.path).toBe("modelRoles.fast");
  });

  it("bounds maxRetries to 0..10 and baseDelayMs to a non-negative integer", () => {
    expect(parseSettings({ retry: { maxRetries: 0 } }).ok).toBe(true);
    expect(parseSettings({ retry: { maxRetries: 10 } }).ok).toBe(true);
    expect(errorsOf({ retry: { maxRetries: 11 } })[0]?.message).toBe("retry.maxRetries: expected an integer from 0 to 10");
    expect(errorsOf({ retry: { maxRetries: -1 } })[0]?.path).toBe("retry.maxRetries");
    expect(errorsOf({ retry: { baseDelayMs: -1 } })[0]?.message).toBe("retry.baseDelayMs: expected a non-negative integer");
  });

  it("rejects a non-URL endpoint and a malformed model reference", () => {
    expect(errorsOf({ compaction: { remoteEndpoint: "not a url" } })[0]?.message).toBe(
      "compaction.remoteEndpoint: expected an http(s) URL",
    );
    expect(errorsOf({ compaction: { remoteEndpoint: "ftp://example.com/x" } })[0]?.path).toBe("compaction.remoteEndpoint");
    expect(errorsOf({ modelRoles: { default: "gpt-4o" } })[0]?.message).toBe(
      'modelRoles.default: expected a "provider/modelId" string',
    );
  });

  it("rejects wrong types for booleans and sections", () => {
    expect(errorsOf({ retry: { enabled: "yes" } })[0]?.message).toBe("retry.enabled: expected true or false");
    expect(errorsOf({ retry: 3 })[0]?.message).toBe("retry: expected an object of settings");
    expect(errorsOf(42)).toEqual([{ path: "", message: "expected a settings object" }]);
  });

  it("reports every invalid field at once", () => {
    const paths = errorsOf({ compaction: { reserveTokens: 0, autoContinue: 1 }, retry: { maxRetries: 99 } }).map((e) => e.path);
    expect(paths).toEqual(["compaction.reserveTokens", "compaction.autoContinue", "retry.maxRetries"]);
  });
});

describe("mergeSettings (session-engine.md §15)", () => {
  it("merges each section key by key and leaves the base untouched", () => {
    const base = defaultSettings();
    const r = mergeSettings(base, { compaction: { keepRecentTokens: 5000 }, retry: { enabled: false } });
    expect(r.ok && r.settings.compaction).toEqual({ ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 5000 });
    expect(r.ok && r.settings.retry).toEqual({ enabled: false, maxRetries: 3, baseDelayMs: 2000 });
    expect(r.ok && r.settings.branchSummary).toEqual(base.branchSummary);
    expect(base.compaction.keepRecentTokens).toBe(20000);
  });

  it("keeps base values that are not overridden, even non-default ones", () => {
    const base = { ...defaultSettings(), modelRoles: { smol: "openai/gpt-4o-mini" } };
    const r = mergeSettings(base, { modelRoles: { slow: "anthropic/claude-opus-4" } });
    expect(r.ok && r.settings.modelRoles).toEqual({ smol: "openai/gpt-4o-mini", slow: "anthropic/claude-opus-4" });
  });

  it("null clears an optional setting", () => {
    const base = parseSettings({ compaction: { remoteEndpoint: "http://localhost:9000/c" }, modelRoles: { plan: "a/b" } });
    if (!base.ok) throw new Error("base invalid");
    const r = mergeSettings(base.settings, { compaction: { remoteEndpoint: null }, modelRoles: { plan: null } });
    expect(r.ok && "remoteEndpoint" in r.settings.compaction).toBe(false);
    expect(r.ok && r.settings.modelRoles).toEqual({});
  });

  it("validates the override with the same field messages", () => {
    const r = mergeSettings(defaultSettings(), { compaction: { reserveTokens: 0 }, bogus: {} });
    expect(r).toEqual({
      ok: false,
      errors: [
        { path: "compaction.reserveTokens", message: "compaction.reserveTokens: expected a positive integer" },
        { path: "bogus", message: "bogus: unknown setting" },
      ],
    });
  });

  it("the override schema fills no defaults", () => {
    expect(parseSettingsOverride({ retry: {} })).toEqual({ ok: true, override: { retry: {} } });
    expect(parseSettingsOverride({})).toEqual({ ok: true, override: {} });
  });
});
