/**
 * Providers set in the Settings page (ui.md "Settings"): kept in the data folder at 0600, never
 * handed back, and used by the next request without a restart. Real HTTP: the fake
 * OpenAI-compatible server stands in for the provider.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverLocalServers } from "@/lib/llm/local-servers";
import { type FakeLlmServer, startFakeLlmServer } from "@/test/fake-llm-server";
import { providerStatus, readProviderSettings, settingsRegistry, updateProviderSettings } from "./provider-settings";

let fake: FakeLlmServer;
let dir: string;
let file: string;
const KEY = "sk-local-test-0123456789";

beforeAll(async () => {
  fake = await startFakeLlmServer({ models: ["page-model", "other-model"] });
  dir = mkdtempSync(path.join(tmpdir(), "arbor-providers-"));
  file = path.join(dir, "providers.json");
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("provider settings", () => {
  it("keeps a key in a 0600 file and reports only where it came from", () => {
    updateProviderSettings({ provider: "compatible", baseURL: fake.url, apiKey: KEY }, file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toContain(KEY);
    const status = providerStatus(file);
    expect(JSON.stringify(status)).not.toContain(KEY);
    expect(status.providers.find((p) => p.provider === "compatible")).toMatchObject({ keySource: "page", baseURL: fake.url, baseURLSource: "page" });
  });

  it("reaches the provider with the key on the next request, no restart", async () => {
    const before = fake.requests.length;
    const registry = settingsRegistry(file);
    const models = await registry.ensureModels();
    expect(models.map((m) => m.ref)).toEqual(expect.arrayContaining(["openai-compatible/page-model", "openai-compatible/other-model"]));
    const resolved = registry.resolveModel("openai-compatible/page-model");
    expect(resolved.hasApiKey).toBe(true);
    await resolved.model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hello" }] }] });
    const sent = fake.requests.slice(before);
    expect(sent.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("rebuilds the registry when the file changes, and keeps it while it does not", async () => {
    const first = settingsRegistry(file);
    expect(settingsRegistry(file)).toBe(first);
    updateProviderSettings({ contextWindow: { ref: "openai-compatible/page-model", tokens: 64_000 } }, file);
    const second = settingsRegistry(file);
    expect(second).not.toBe(first);
    await second.ensureModels();
    const info = second.resolveModel("openai-compatible/page-model").info;
    expect(info.contextWindow).toBe(64_000);
    expect(info.windowAssumed).not.toBe(true);
    // A session's own window setting still wins over the page's.
    expect(second.resolveModel("openai-compatible/page-model", { contextWindow: 8_000 }).info.contextWindow).toBe(8_000);
  });

  it("removes a key with null and keeps the rest", () => {
    updateProviderSettings({ provider: "compatible", apiKey: null }, file);
    const { settings } = readProviderSettings(file);
    expect(settings.compatible).toEqual({ baseURL: fake.url });
    expect(settings.contextWindows).toEqual({ "openai-compatible/page-model": 64_000 });
    expect(readFileSync(file, "utf8")).not.toContain(KEY);
  });

  it("ignores a broken file, saying which part, without its values", () => {
    const broken = path.join(dir, "broken.json");
    updateProviderSettings({ provider: "openai", apiKey: "sk-should-stay" }, broken);
    const doc = JSON.parse(readFileSync(broken, "utf8"));
    doc.anthropic = { apiKey: 42 };
    writeFileSync(broken, JSON.stringify(doc));
    const { settings, warnings } = readProviderSettings(broken);
    expect(settings.openai?.apiKey).toBe("sk-should-stay");
    expect(settings.anthropic).toBeUndefined();
    expect(warnings.join(" ")).toMatch(/anthropic/);
    expect(warnings.join(" ")).not.toContain("sk-should-stay");
  });
});

describe("discoverLocalServers", () => {
  it("lists a server's models on its port and says when nothing answers", async () => {
    const servers = await discoverLocalServers({
      candidates: [
        { name: "Fake", port: fake.port },
        { name: "Nothing", port: 9 },
      ],
      timeoutMs: 1500,
    });
    expect(servers[0]).toMatchObject({ name: "Fake", found: true, baseURL: `http://127.0.0.1:${fake.port}/v1`, models: ["page-model", "other-model"] });
    expect(servers[1]).toMatchObject({ name: "Nothing", found: false, models: [] });
  });
});
