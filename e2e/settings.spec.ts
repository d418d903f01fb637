/**
 * Models in two clicks (ui.md "Settings"): on the app with no model configured, a base URL and an
 * API key set in the Settings page reach the provider (the fake OpenAI-compatible server: the
 * Authorization header it receives) with the next message, without a restart — and the key is in
 * no response the browser gets and nowhere in the server's log.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fakeLlm } from "./fake-llm";
import { appLogPath, E2E_PORTS } from "./ports";
import { messagesLog } from "./session-helpers";
import { expect, test } from "./test";

const OFFLINE = `http://127.0.0.1:${E2E_PORTS.offlineApp}`;
const FAKE_URL = `http://127.0.0.1:${E2E_PORTS.fakeLlm}/v1`;
const PROVIDERS_FILE = path.join(process.cwd(), ".data", "e2e-offline", "providers.json");

test("a key set in the page reaches the provider without a restart, and is never sent back or logged", async ({ page }) => {
  test.setTimeout(90_000);
  const key = `sk-e2e-${crypto.randomUUID()}`;
  const bodies: string[] = [];
  page.on("response", async (res) => {
    bodies.push(await res.text().catch(() => ""));
  });
  try {
    await page.goto(`${OFFLINE}/settings`);
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Offline model" })).toContainText("It is in use now");
    await expect(page.getByRole("list", { name: "Local servers" })).toContainText("Ollama");

    const server = page.getByRole("region", { name: "OpenAI-compatible server" });
    await server.getByRole("textbox", { name: "Base URL" }).fill(FAKE_URL);
    await server.getByLabel("OpenAI-compatible server API key").fill(key);
    await server.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "OpenAI-compatible server saved" })).toBeVisible();
    await expect(server).toContainText("API key set (saved in Arbor's data folder)");
    await expect(server.getByRole("table", { name: "OpenAI-compatible server models" })).toContainText("fake-model");
    await expect(server.getByLabel("OpenAI-compatible server API key")).toHaveValue("");
    await expect(page.getByRole("region", { name: "Offline model" })).toContainText("It is used only where you choose it");

    // The next message goes to the provider with the key: no restart.
    await fakeLlm.reset();
    await fakeLlm.script({ text: "Hello from the configured model." });
    await page.goto(`${OFFLINE}/`);
    await page.getByRole("button", { name: "New session" }).click();
    await expect(page.getByRole("combobox", { name: "Chat model" })).toHaveValue("openai-compatible/fake-model");
    await page.getByRole("textbox", { name: "Message" }).fill("Which model answers?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(messagesLog(page).getByRole("article", { name: "assistant message", exact: true }).last()).toContainText("Hello from the configured model.");
    const sent = (await fakeLlm.requests()) as { headers?: Record<string, string> }[];
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.at(-1)?.headers?.authorization).toBe(`Bearer ${key}`);

    // The page, its data and every response: never the key.
    await page.goto(`${OFFLINE}/settings`);
    await expect(page.getByRole("region", { name: "OpenAI-compatible server" })).toContainText("API key set");
    expect(bodies.length).toBeGreaterThan(5);
    for (const body of bodies) expect(body.includes(key)).toBe(false);
    expect(await page.content()).not.toContain(key);
    const log = readFileSync(appLogPath("offline"), "utf8");
    expect(log.includes(key)).toBe(false);
  } finally {
    // Back to no model at all, for the specs that expect the offline app offline.
    rmSync(PROVIDERS_FILE, { force: true });
  }
});
