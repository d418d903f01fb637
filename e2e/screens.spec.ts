/**
 * The session page on every screen size and theme (docs/ui.md "The session workspace"): under 900 px the panes are tabs
 * (Chat, Tree, Inspector) with a full-width composer; header and composer stay in view and only
 * the panes scroll, also while the compact dialog is open; the dark page hydrates without a
 * warning (the console guard of ./test fails any test that logs one); the model picker and the
 * meter are rendered on the server.
 */
import type { Page } from "@playwright/test";
import { fakeLlm } from "./fake-llm";
import { chatTurn, messagesLog, newSession } from "./session-helpers";
import { expect, test } from "./test";

test.beforeEach(async () => {
  await fakeLlm.reset();
});

/** The page itself does not scroll, and the app header's top edge is at the top of the viewport. */
async function expectPageFixed(page: Page): Promise<void> {
  const scroll = await page.evaluate(() => ({ y: window.scrollY, height: document.documentElement.scrollHeight, viewport: window.innerHeight }));
  expect(scroll.y).toBe(0);
  expect(scroll.height).toBeLessThanOrEqual(scroll.viewport);
  const header = await page.getByRole("banner").boundingBox();
  expect(header?.y).toBe(0);
}

test.describe("a phone, 390 × 844", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("chat → tree → inspector by tabs, a full-width composer, and a message can be sent", async ({ page }) => {
    await newSession(page);
    const tabs = page.getByRole("tablist", { name: "Session panes" });
    await expect(tabs).toBeVisible();
    await expect(tabs.getByRole("tab", { name: "Chat" })).toHaveAttribute("aria-selected", "true");

    const composer = page.getByRole("textbox", { name: "Message" });
    const box = await composer.boundingBox();
    // Full width: the textbox and the Send button take the whole row (not one letter wide).
    expect(box?.width ?? 0).toBeGreaterThan(250);
    await chatTurn(page, "Say hello from the phone", { text: "Hello, small screen." });
    await expectPageFixed(page);
    await expect(composer).toBeInViewport();

    await tabs.getByRole("tab", { name: "Tree" }).click();
    const tree = page.getByRole("region", { name: "Session tree" });
    await expect(tree).toBeVisible();
    await expect(messagesLog(page)).toBeHidden();
    // The canvas measured its pane while hidden: the new turn's nodes are drawn in view.
    await expect(tree.locator('[aria-roledescription="node"]').getByText("Say hello from the phone").first()).toBeInViewport();

    await tabs.getByRole("tab", { name: "Inspector" }).click();
    await expect(page.getByRole("region", { name: "Context inspector" })).toBeVisible();
    await expect(tree).toBeHidden();

    await tabs.getByRole("tab", { name: "Chat" }).click();
    await expect(messagesLog(page).getByRole("article", { name: "assistant message", exact: true }).last()).toContainText("Hello, small screen.");
    await expectPageFixed(page);
  });

  test("the compact dialog does not scroll the page: the header stays in view", async ({ page }) => {
    await newSession(page);
    await chatTurn(page, "One turn to compact", { text: "A reply." });
    await page.getByRole("button", { name: "Compact", exact: true }).click();
    await expect(page.getByRole("dialog", { name: "Compact session" })).toBeVisible();
    await expectPageFixed(page);
    // The title bar (the session is titled by its first message by now).
    await expect(page.getByRole("heading", { level: 1, name: "One turn to compact" })).toBeInViewport();
  });
});

test("on a desktop the panes sit side by side with no tabs, and the compact dialog leaves the header in view", async ({ page }) => {
  await newSession(page);
  await expect(page.getByRole("tablist", { name: "Session panes" })).toBeHidden();
  await expect(page.getByRole("region", { name: "Session tree" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Context inspector" })).toBeVisible();
  await page.getByRole("button", { name: "Compact", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Compact session" })).toBeVisible();
  await expectPageFixed(page);
});

test.describe("dark", () => {
  test.use({ colorScheme: "dark" });

  test("the dark session page hydrates without a warning and its canvas is dark", async ({ page }) => {
    await newSession(page);
    await chatTurn(page, "Hello in the dark", { text: "Dark reply." });
    await page.reload();
    await expect(messagesLog(page)).toContainText("Dark reply.");
    // Production React leaves a mismatched attribute as the server wrote it: the canvas would stay "light".
    await expect(page.locator(".react-flow")).toHaveClass(/\bdark\b/);
    // The console guard (./test) fails this test at teardown on any hydration warning or error.
  });
});

test("the model picker and the meter come rendered from the server, before any script runs", async ({ browser, page }) => {
  const id = await newSession(page);
  const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL: new URL(page.url()).origin });
  try {
    const bare = await noScript.newPage();
    await bare.goto(`/sessions/${id}`);
    await expect(bare.getByRole("combobox", { name: "Chat model" })).toHaveValue("openai-compatible/fake-model");
    await expect(bare.getByTestId("context-meter-text")).toContainText("of fake-model's 32k");
  } finally {
    await noScript.close();
  }
});
