import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { generateSessionJsonl } from "@/test/generators/session";
import type { InspectedMessagesPage, TurnView } from "@/lib/types/inspector";
import { expect, test } from "./test";
import { fakeLlm } from "./fake-llm";
import {
  COMPACTABLE_TURNS,
  chatCompactableTurns,
  chatTurn,
  deleteFromList,
  hasLargeFixture,
  importJsonl,
  LARGE,
  LARGE_MISSING,
  messagesLog,
  newSession,
  readTree,
} from "./session-helpers";

/**
 * The context inspector in the browser (issue 7): after chat → compact → chat, "Inspect this
 * turn" shows what the model saw — the compaction summary first, then the kept messages from
 * the compaction's firstKeptEntryId, the token bar with the provider-reported prompt tokens,
 * and the compacted messages listed as removed; an imported session's turn is reconstructed.
 * On open (docs/ui.md "The session workspace") the inspector already shows the latest turn, with no click.
 */

test.beforeEach(async () => {
  await fakeLlm.reset();
});

const inspector = (page: Page) => page.getByRole("region", { name: "Context inspector" });

test("after a compaction, the next turn's context starts with the summary, then the kept messages", async ({ page, request }) => {
  const id = await newSession(page);
  await chatCompactableTurns(page);

  await page.getByRole("button", { name: "Compact", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Compact session" });
  await fakeLlm.script({ text: "## Goal\nBuild X with PostgreSQL and React Flow." }, { text: "PostgreSQL and React Flow for X." });
  await dialog.getByRole("button", { name: "Compact" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(messagesLog(page).getByRole("article", { name: "compaction" })).toBeVisible();

  await chatTurn(page, "Go on with the plan for X.", { text: "The plan continues.", usage: { promptTokens: 1234, completionTokens: 5 } });

  const tree = await readTree(request, id);
  const compaction = tree.entries.find((e) => e.type === "compaction")!;
  const messages = tree.entries.filter((e) => e.type === "message");
  const compacted = messages.slice(0, 4); // u1 a1 u2 a2
  expect(compaction.firstKeptEntryId).toBe(messages[4]!.id); // u3

  await messagesLog(page).getByRole("article", { name: "assistant message", exact: true }).last().getByRole("button", { name: "Inspect this turn" }).click();
  const panel = inspector(page);
  await expect(panel.getByRole("tab", { name: "Context" })).toHaveAttribute("aria-selected", "true");

  // The messages sent, in order: the summary first, then u3 (the first kept entry), a3 and the new prompt.
  const sent = panel.getByRole("list", { name: "Messages sent, in order" }).getByRole("listitem").filter({ hasNotText: "System prompt" });
  await expect(sent).toHaveCount(4);
  await expect(sent.nth(0)).toContainText("Compaction summary");
  await expect(sent.nth(0)).toContainText("Build X with PostgreSQL and React Flow.");
  await expect(sent.nth(1)).toContainText(`kept from ${compaction.firstKeptEntryId}`);
  await expect(sent.nth(1).getByRole("button", { name: `Show entry ${compaction.firstKeptEntryId} on the canvas` })).toBeVisible();
  await expect(sent.nth(1)).toContainText(COMPACTABLE_TURNS[2]!.user.slice(0, 60));
  await expect(sent.nth(2)).toContainText(COMPACTABLE_TURNS[2]!.reply);
  await expect(sent.nth(3)).toContainText("Go on with the plan for X.");

  // The token bar and the provider's own count for this call.
  await expect(panel.getByRole("img", { name: /^Context window: .*Summaries/ })).toBeVisible();
  await expect(panel.getByText(/^Provider-reported prompt tokens: 1,234/)).toBeVisible();

  // The diff against the previous chat call: the four compacted messages were removed.
  const diff = panel.getByRole("region", { name: "Changes since the previous turn" });
  await expect(diff).toContainText("Removed (4) — compacted away or pruned");
  for (const m of compacted) await expect(diff.getByRole("button", { name: `Show entry ${m.id} on the canvas` })).toBeVisible();
  await expect(diff).toContainText(/Added \(\d+\)/);

  // The entry link centres the canvas on the first kept entry and selects it.
  await sent.nth(1).getByRole("button", { name: `Show entry ${compaction.firstKeptEntryId} on the canvas` }).click();
  await expect(page.getByRole("region", { name: "Session tree" }).locator(`[data-id="${compaction.firstKeptEntryId}"]`)).toHaveClass(/\bselected\b/);
});

/** A tiny imported pi session: one prompt and its answer, with the provider's usage. */
function importedTurnJsonl(id: string): string {
  const at = (s: number) => new Date(Date.UTC(2025, 0, 15, 9, 0, s)).toISOString();
  const lines = [
    { type: "session", version: 3, id, timestamp: at(0), cwd: "/home/dev/project" },
    { type: "message", id: "u1", parentId: null, timestamp: at(1), message: { role: "user", content: [{ type: "text", text: "Which port does the API listen on?" }], timestamp: Date.parse(at(1)) } },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: at(2),
      message: {
        role: "assistant",
        content: [{ type: "text", text: "It listens on port 8080." }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: 321, output: 9, cacheRead: 0, cacheWrite: 0, totalTokens: 330, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "stop",
        timestamp: Date.parse(at(2)),
      },
    },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

test.describe("the inspector shows the latest turn's messages with no click", () => {
  test("a chatted session opens on its latest recorded call", async ({ page }) => {
    const id = await newSession(page);
    // Before anything was sent the pane is not empty either: the next-turn preview.
    await expect(inspector(page)).toContainText("Chat turn (preview)");
    await chatTurn(page, "First question about X.", { text: "First answer about X." });
    await chatTurn(page, "Second question about Y.", { text: "Second answer about Y." });

    await page.goto(`/sessions/${id}`);
    const panel = inspector(page);
    await expect(panel.getByRole("tab", { name: "Context" })).toHaveAttribute("aria-selected", "true");
    await expect(panel).toContainText("Chat turn (recorded)");
    const sent = panel.getByRole("list", { name: "Messages sent, in order" }).getByRole("listitem").filter({ hasNotText: "System prompt" });
    await expect(sent).toHaveCount(3);
    await expect(sent.nth(0)).toContainText("First question about X.");
    await expect(sent.nth(1)).toContainText("First answer about X.");
    await expect(sent.nth(2)).toContainText("Second question about Y.");
    await expect(panel).not.toContainText("No assistant answered");
  });

  test("an imported session opens on the reconstruction of its latest turn", async ({ page, request }) => {
    const id = await importJsonl(request, "imported-latest-turn.jsonl", importedTurnJsonl(crypto.randomUUID()), { asCopy: true });
    try {
      await page.goto(`/sessions/${id}`);
      const panel = inspector(page);
      await expect(panel).toContainText("Chat turn (reconstructed)");
      await expect(panel.getByRole("note").filter({ hasText: "Reconstructed from the session" })).toBeVisible();
      const sent = panel.getByRole("list", { name: "Messages sent, in order" }).getByRole("listitem");
      await expect(sent.filter({ hasText: "Which port does the API listen on?" })).toHaveCount(1);
      await expect(panel.getByText(/^Provider-reported prompt tokens: 321/)).toBeVisible();
    } finally {
      await deleteFromList(page, request, id, "Which port");
    }
  });
});

test("a turn of thousands of messages opens at once with its count, and loads later messages on demand", async ({ page, request }, info) => {
  test.setTimeout(180_000);
  // Never compacted: the latest turn's context holds nearly every one of the 4,000 entries.
  const id = await importJsonl(request, `generated-long-turn-${info.project.name}.jsonl`, generateSessionJsonl({ seed: 21, entries: 4000 }), { asCopy: true });
  const { entries } = await readTree(request, id);
  const last = entries.findLast((e) => e.type === "message" && e.message?.role === "assistant")!;
  const res = await request.get(`/api/sessions/${id}/inspect?entry=${last.id}`);
  const body = await res.text();
  expect(body.length).toBeLessThan(1024 * 1024);
  const { turn } = JSON.parse(body) as { turn: TurnView };
  expect(turn.messageCount).toBeGreaterThan(3000);
  // The sources of the 201st and 401st messages, to find their rows once loaded.
  const sourceAt = async (offset: number) =>
    ((await (await request.get(`/api/sessions/${id}/inspect/messages?entry=${last.id}&offset=${offset}&limit=1`)).json()) as { page: InspectedMessagesPage }).page.messages[0]!
      .sourceEntryId!;
  const [at201, at401] = [await sourceAt(200), await sourceAt(400)];

  const pageLoads: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/inspect/messages")) pageLoads.push(r.url());
  });
  await page.goto(`/sessions/${id}`, { timeout: 120_000 });
  const panel = inspector(page);
  await expect(panel).toContainText("Chat turn (reconstructed)", { timeout: 30_000 });
  const count = turn.messageCount.toLocaleString("en-US");
  await expect(panel.getByText(`${count} messages sent; the first and the last are shown, the rest load as you scroll.`)).toBeVisible();
  const sent = panel.getByRole("list", { name: "Messages sent, in order" });
  const more = sent.getByRole("listitem").filter({ hasText: "more messages" });
  await expect(more).toContainText(`${(turn.messageCount - 400).toLocaleString("en-US")} more messages (201–${(turn.messageCount - 200).toLocaleString("en-US")})`);
  await expect(sent.getByRole("button", { name: `Show entry ${at201} on the canvas` })).toHaveCount(0);
  expect(pageLoads).toEqual([]); // nothing beyond the turn itself until asked

  // "Show more" loads the next page into the gap: message 201 with its link to its entry.
  await more.getByRole("button", { name: "Show more" }).click();
  const row201 = sent.getByRole("listitem").filter({ hasText: /^201\./ });
  await expect(row201.getByRole("button", { name: `Show entry ${at201} on the canvas` })).toBeVisible();
  // Scrolling down to the gap again loads the page after it, with no click.
  await more.scrollIntoViewIfNeeded();
  await expect(sent.getByRole("listitem").filter({ hasText: /^401\./ }).getByRole("button", { name: `Show entry ${at401} on the canvas` })).toBeAttached();
  // The header's totals stay those of the whole turn.
  await expect(panel.getByText(`our estimate: ${turn.estimatedTokens.toLocaleString("en-US")}`, { exact: false })).toBeVisible();
});

test.describe("with the large-session fixture", () => {
  test.skip(!hasLargeFixture, LARGE_MISSING);
  let imported: string | undefined;
  test.afterEach(async ({ page, request }) => {
    if (imported) await deleteFromList(page, request, imported, "fibonacci");
    imported = undefined;
  });

  test("an imported assistant turn is reconstructed from the session", async ({ page, request }) => {
    const id = await importJsonl(request, "large-session.jsonl", readFileSync(LARGE), { asCopy: true });
    imported = id;
    await page.goto(`/sessions/${id}`);
    await messagesLog(page).getByRole("article", { name: "assistant message", exact: true }).last().getByRole("button", { name: "Inspect this turn" }).click();
    const panel = inspector(page);
    await expect(panel.getByRole("note").filter({ hasText: "Reconstructed from the session" })).toBeVisible({ timeout: 20_000 });
    await expect(panel).toContainText("Chat turn (reconstructed)");
    await expect(panel.getByRole("list", { name: "Messages sent, in order" }).getByRole("listitem").first()).toBeVisible();
    await expect(panel.getByText(/^Provider-reported prompt tokens: [\d,]+/)).toBeVisible();
  });
});
