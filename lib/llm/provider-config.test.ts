/** How the page's providers combine with the environment's (ui.md "Settings"). */
import { describe, expect, it } from "vitest";
import { mergeRegistryConfig, parseProviderSettings } from "./provider-config";

describe("mergeRegistryConfig", () => {
  const env = { openai: { apiKey: "env-openai" }, compatible: { baseURL: "http://127.0.0.1:9/v1", apiKey: "env-compat", models: ["m1"], contextWindow: 32_000 } };

  it("lets a key set in the page win for its provider and keeps the environment's elsewhere", () => {
    const merged = mergeRegistryConfig(env, { openai: { apiKey: "page-openai" }, anthropic: { apiKey: "page-anthropic" } });
    expect(merged.openai).toEqual({ apiKey: "page-openai" });
    expect(merged.anthropic).toEqual({ apiKey: "page-anthropic" });
    expect(merged.compatible).toEqual(env.compatible);
  });

  it("keeps the environment's compatible models, window and key for the same server, not for another", () => {
    expect(mergeRegistryConfig(env, { compatible: { baseURL: "http://127.0.0.1:9/v1/" } }).compatible).toMatchObject({ models: ["m1"], contextWindow: 32_000, apiKey: "env-compat" });
    expect(mergeRegistryConfig(env, { compatible: { baseURL: "http://127.0.0.1:11434/v1" } }).compatible).toEqual({ baseURL: "http://127.0.0.1:11434/v1" });
  });

  it("passes the page's context windows to the registry", () => {
    expect(mergeRegistryConfig({}, { contextWindows: { "openai/gpt-4o": 64_000 } }).contextWindows).toEqual({ "openai/gpt-4o": 64_000 });
  });
});

describe("parseProviderSettings", () => {
  it("keeps the valid parts of a broken document and names the rest", () => {
    const { settings, warnings } = parseProviderSettings({ openai: { apiKey: "k" }, compatible: { baseURL: "not a url" } });
    expect(settings).toEqual({ openai: { apiKey: "k" } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/compatible/);
  });
});
