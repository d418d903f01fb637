/**
 * The views on real sessions (ui.md "Chat", "context meter", "Settings"):
 * - the chat jumps to the start, to turn N and to a search match (scrolled into view, highlighted);
 * - the meter of an imported Opus Claude Code session measures against that model's window, says
 *   the next turn uses another model, warns that sending will first compact, and changes after a
 *   turn with no reload;
 * - a session's title follows its first message without a reload; "?" lists the shortcuts.
 * Real files from ../shared/fixtures/formats (skipped cleanly when absent); the fake
 * OpenAI-compatible server is the model.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { describeModel } from "@/lib/llm/models";
import { generateSession, generateSessionJsonl } from "@/test/generators/session";
import type { SessionEntry } from "@/lib/session/types";
import { fakeLlm } from "./fake-llm";
import { FAKE_CONTEXT_WINDOW } from "./ports";
import { FIXTURES, importJsonl, messagesLog, newSession, send } from "./session-helpers";
import { expect, test } from "./test";

const OPUS = path.join(FIXTURES, "formats/claude/gtrrz-victor-cli-v2-1-85-api-error.jsonl");

const chatNav = (page: Page) => page.getByRole("navigation", { name: "Chat navigation" });
const row = (page: Page, entryId: string) => messagesLog(page).locator(`[data-entry-id="${entryId}"]`);

/** Root → leaf of a generated session, independently of Arbor's tree code (the last entry is the leaf). */
function pathOf(entries: readonly SessionEntry[]): SessionEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: SessionEntry[] = [];
  for (let e: SessionEntry | undefined = entries.at(-1); e; e = e.parentId ? byId.get(e.parentId) : undefined) out.unshift(e);
  return out;
}

const textOf = (e: SessionEntry) => {
  if (e.type !== "message" || e.message.role !== "user") return "";
  const c = e.message.content;
  return typeof c === "string" ? c : c.map((b) => (b.type === "text" ? b.text : "")).join("");
};

test("the chat jumps to the start, to turn N and to a search match, and highlights it", async ({ page, request }, info) => {
  const opts = { seed: 3434, entries: 700 } as const;
  const id = await importJsonl(request, `views-jump-${info.project.name}.jsonl`, generateSessionJsonl(opts), { asCopy: true });
  const users = pathOf(generateSession(opts).entries).filter((e) => e.type === "message" && e.message.role === "user");
  expect(users.length).toBeGreaterThan(20);
  await page.goto(`/sessions/${id}`);
  await expect(chatNav(page)).toBeVisible();
  // The first user message is far above the newest page: not in the page at all yet.
  await expect(row(page, users[0]!.id)).toHaveCount(0);

  await chatNav(page).getByRole("button", { name: "Jump to the start of the chat" }).click();
  await expect(row(page, users[0]!.id)).toBeInViewport();

  // Turn 12: the twelfth user message of the path.
  await chatNav(page).getByRole("spinbutton", { name: /^Turn number/ }).fill("12");
  await chatNav(page).getByRole("button", { name: "Jump to the turn" }).click();
  await expect(row(page, users[11]!.id)).toBeInViewport();
  await expect(row(page, users[11]!.id)).toHaveAttribute("data-highlighted", "true");

  // A search match deep in the path: the chat steps to it.
  const target = users[Math.floor(users.length / 3)]!;
  const words = textOf(target).split(/\s+/).slice(0, 6).join(" ");
  await page.getByRole("region", { name: "Session tree" }).getByRole("searchbox").fill(words);
  const matches = chatNav(page).getByRole("group", { name: "Search matches in the chat" });
  await expect(matches).toContainText(/on this branch/);
  // Step until the target is the one shown (an exact phrase may occur more than once).
  for (let i = 0; i < 30; i++) {
    await matches.getByRole("button", { name: "Next match" }).click();
    if ((await row(page, target.id).getAttribute("data-highlighted").catch(() => null)) === "true") break;
  }
  await expect(row(page, target.id)).toBeInViewport();
  await expect(row(page, target.id)).toHaveAttribute("data-highlighted", "true");
  // The match is the session's selection: the inspector follows it.
  await expect(row(page, target.id)).toHaveAttribute("aria-current", "true");
});

test.describe("an imported Opus Claude Code session", () => {
  test.skip(!existsSync(OPUS), `fixture not found: ${OPUS} (set ARBOR_FIXTURES to the shared fixtures folder)`);

  test("the meter measures against the session's own model, warns before a compacting send, and follows a turn", async ({ page, request }, info) => {
    test.setTimeout(120_000);
    const raw = readFileSync(OPUS, "utf8");
    // Independently: the model and usage of the file's last real assistant record.
    const assistants = raw
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type?: string; message?: { model?: string; usage?: Record<string, number> } })
      .filter((r) => r.type === "assistant" && r.message?.model && r.message.model !== "<synthetic>");
    const last = assistants.at(-1)!.message!;
    const model = last.model!;
    const u = last.usage ?? {};
    const reported = (u.input_tokens ?? 0) + (u.output_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    const window = describeModel("anthropic", model).contextWindow;
    const k = (n: number) => `${Math.round(n / 1000)}k`;

    const id = await importJsonl(request, `views-opus-${info.project.name}.jsonl`, raw, { asCopy: true });
    await page.goto(`/sessions/${id}`);
    const meter = page.getByTestId("context-meter-text");
    await expect(meter).toContainText(`of ${model}'s ${k(window)}`);
    await expect(meter).not.toContainText("assumed");
    // The next turn runs on the fake model (no Anthropic key here): said, with why.
    await expect(page.getByTestId("context-meter-next")).toHaveText(`Next turn: fake-model (${k(FAKE_CONTEXT_WINDOW)} window) — no API key for anthropic`);
    const warning = page.getByTestId("context-meter-warning");
    await expect(warning).toContainText(/^Sending will first compact: \d+k > 16k$/);
    const warned = Number(/: (\d+)k/.exec((await warning.textContent()) ?? "")![1]) * 1000;
    expect(warned).toBeLessThanOrEqual(reported + 500);
    expect(warned).toBeGreaterThan(FAKE_CONTEXT_WINDOW);
    // "How is this counted?" says where the number comes from.
    await page.locator('summary[aria-label="How is this counted?"]').click();
    await expect(page.getByRole("note").filter({ hasText: "reported by anthropic/" })).toContainText("system prompt and tool definitions");

    // A turn: the send compacts first, then the fake model answers; no reload.
    await fakeLlm.reset();
    await send(page, "Where did the attribution drift come from?");
    await expect(messagesLog(page).getByRole("article", { name: "compaction" }).last()).toBeVisible({ timeout: 60_000 });
    await expect(meter).toContainText(`of fake-model's ${k(FAKE_CONTEXT_WINDOW)}`, { timeout: 30_000 });
    await expect(page.getByTestId("context-meter-next")).toHaveCount(0);
    await expect(warning).toHaveCount(0);
  });
});

test("a new session's title follows its first message without a reload; '?' lists the shortcuts", async ({ page }) => {
  await newSession(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Untitled session");
  await fakeLlm.script({ text: "Sure." });
  await send(page, "Plan the database migration");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plan the database migration");
  await expect(page).toHaveTitle("Plan the database migration · Arbor");

  await page.getByRole("heading", { level: 1 }).click(); // focus out of the composer
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("region", { name: /Session tree/ })).toContainText("Label the selected entry");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});
