import { expect, test } from "./test";
import { fakeLlm } from "./fake-llm";
import { E2E_PORTS } from "./ports";

test.beforeEach(async () => {
  await fakeLlm.reset();
});

test("send a message and see the reply stream in, saved across a reload", async ({ page }) => {
  await fakeLlm.script({ text: "Streaming hello from the fake model, word by word.", chunkSize: 6, delayMs: 40, usage: { promptTokens: 900, completionTokens: 12 } });
  await page.goto("/");
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page).toHaveURL(/\/sessions\//);
  await page.getByRole("textbox", { name: "Message" }).fill("Say hello");
  await page.getByRole("button", { name: "Send" }).click();
  // While streaming: Stop replaces Send and the partial reply is visible.
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect(page.getByRole("article", { name: "assistant message (streaming)" })).toBeVisible();
  const log = page.getByRole("log", { name: "Messages" });
  await expect(log.getByRole("article", { name: "assistant message", exact: true })).toContainText("Streaming hello from the fake model, word by word.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(page.getByTestId("context-meter-text")).toContainText("912 of fake-model's 32k");

  await page.reload();
  await expect(page.getByRole("log", { name: "Messages" }).getByRole("article", { name: "assistant message", exact: true })).toContainText("word by word");
  const sent = await fakeLlm.requests();
  expect(sent.at(-1)?.lastUserText).toBe("Say hello");
});

test("the offline model works with no model server configured", async ({ page }) => {
  await page.goto(`http://127.0.0.1:${E2E_PORTS.offlineApp}/`);
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByText("Offline model — no LLM configured")).toBeVisible();
  await page.getByRole("textbox", { name: "Message" }).fill("Hi");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("log", { name: "Messages" }).getByRole("article", { name: "assistant message", exact: true })).toContainText("No language model is configured");
});

test("text typed into the composer before the page hydrates is kept and sent", async ({ page }) => {
  await fakeLlm.script({ text: "Got your early message." });
  await page.goto("/");
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page).toHaveURL(/\/sessions\//);
  // Reload with the page's scripts held back: the server's HTML shows the composer, React has not
  // hydrated it, and the user types all the same.
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_next\/static\/chunks\/.*\.js/, async (route) => {
    await released;
    await route.continue();
  });
  await page.reload({ waitUntil: "commit" });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Typed before hydration");
  release();
  const send = page.getByRole("button", { name: "Send" });
  await expect(send).toBeEnabled();
  await expect(box).toHaveValue("Typed before hydration");
  await send.click();
  const log = page.getByRole("log", { name: "Messages" });
  await expect(log.getByRole("article", { name: "assistant message", exact: true })).toContainText("Got your early message.");
  expect((await fakeLlm.requests()).at(-1)?.lastUserText).toBe("Typed before hydration");
});
