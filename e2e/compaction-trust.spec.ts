import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { fakeLlm } from "./fake-llm";
import { chatTurn, editSettings, isSummarization, messagesLog, newSession, readTree } from "./session-helpers";

/**
 * Compaction you can trust (docs/engine.md "Arbor extensions around compaction") in the browser: the fact check beside a compaction's
 * summary, a click on a dropped fact selecting its source node, Undo compaction with Redo, and
 * Compact again with another focus, compared side by side, then "Use this one"; from the canvas:
 * pin an entry and see it survive a compaction verbatim, and compact again with another model,
 * compare, choose, undo and redo through a compaction node's menu.
 */

test.beforeEach(async () => {
  await fakeLlm.reset();
});

// About as long as session-helpers' COMPACTABLE_TURNS, with the same reported usage, so the cut
// lands on the third user message: the first two turns are summarised.
const TURNS = [
  { user: "Rename `loadConfig` to `readConfig` in lib/config.ts, and update every caller. Never edit the generated folder by hand.", reply: "Noted: readConfig.", promptTokens: 2000 },
  { user: "Keep the retry timeout at 200 ms for the importer; it streams the file into the database in one transaction per batch.", reply: "Noted: 200 ms.", promptTokens: 4000 },
  { user: "Now write the migration plan for X: which tables, which indexes, and how the importer streams the file into them.", reply: "Here is the migration plan.", promptTokens: 6000 },
];
const SUMMARY = "## Goal\nRename `loadConfig` to readConfig in lib/config.ts and update the callers.";

const inspector = (page: Page) => page.getByRole("region", { name: "Context inspector" });
const canvasNode = (page: Page, id: string) => page.getByRole("region", { name: "Session tree" }).locator(`[data-id="${id}"]`);

async function chattedSession(page: Page) {
  const id = await newSession(page);
  await editSettings(page, async (dialog) => {
    await dialog.getByRole("spinbutton", { name: "Keep recent tokens" }).fill("1000");
  });
  for (const t of TURNS) await chatTurn(page, t.user, { text: t.reply, usage: { promptTokens: t.promptTokens, completionTokens: 12 } });
  return id;
}

async function compactedSession(page: Page) {
  const id = await chattedSession(page);
  await compactNow(page);
  return id;
}

async function compactNow(page: Page) {
  await page.getByRole("button", { name: "Compact", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Compact session" });
  await fakeLlm.script({ text: SUMMARY }, { text: "I renamed loadConfig." });
  await dialog.getByRole("button", { name: "Compact" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(messagesLog(page).getByRole("article", { name: "compaction" })).toBeVisible();
}

/** Opens a canvas node's "⋯" menu and runs `item`; "Fit view" first, so an early node is rendered. */
async function nodeMenu(page: Page, id: string, item: string) {
  await page.getByRole("button", { name: "Fit view" }).click();
  await canvasNode(page, id).getByRole("button", { name: "Entry actions" }).click();
  await page.getByRole("menu", { name: "Entry actions" }).getByRole("menuitem", { name: item }).click();
}

test("the fact check beside the summary; a dropped fact selects its source node; undo and redo", async ({ page, request }) => {
  const id = await compactedSession(page);
  const tree = await readTree(request, id);
  const compaction = tree.entries.find((e) => e.type === "compaction")!;
  const firstUser = tree.entries.find((e) => e.type === "message" && e.message?.role === "user")!;

  const panel = inspector(page).getByRole("region", { name: "Compaction fact check" });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText(SUMMARY.split("\n")[1]!);
  await expect(panel).toContainText(/\d+ of \d+ facts carried/);
  // A kind whose facts were all carried starts folded.
  await panel.getByText(/^Identifiers: \d+ of \d+ carried$/).click();
  const identifiers = panel.getByRole("list", { name: "Identifiers facts" });
  await expect(identifiers.getByRole("listitem").filter({ hasText: "loadConfig" })).toContainText("carried");
  const dropped = panel.getByRole("list", { name: "Instructions facts" }).getByRole("listitem").filter({ hasText: "Never edit the generated folder" });
  await expect(dropped).toContainText("dropped");

  // Undo: the leaf moves to the entry before the compaction, nothing is deleted.
  await panel.getByRole("button", { name: "Undo compaction" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Compaction undone" });
  await expect(toast).toBeVisible();
  await expect.poll(async () => (await readTree(request, id)).leafId).toBe(compaction.parentId);
  expect((await readTree(request, id)).entries).toHaveLength(tree.entries.length);
  await expect(messagesLog(page).getByRole("article", { name: "compaction" })).toHaveCount(0);

  await toast.getByRole("button", { name: "Redo" }).click();
  await expect.poll(async () => (await readTree(request, id)).leafId).toBe(compaction.id);
  await expect(messagesLog(page).getByRole("article", { name: "compaction" })).toBeVisible();

  // The selection followed the leaf back to the compaction: a dropped fact selects its source node.
  await expect(dropped).toContainText("dropped");
  await dropped.getByRole("button", { name: `Show entry ${firstUser.id} on the canvas` }).click();
  await expect(canvasNode(page, firstUser.id)).toHaveClass(/\bselected\b/);
});

test("compact again with another focus, compare side by side, use this one", async ({ page, request }) => {
  const id = await compactedSession(page);
  const panel = inspector(page).getByRole("region", { name: "Compaction fact check" });
  await panel.getByRole("button", { name: "Compact again with…" }).click();
  await panel.getByRole("textbox", { name: "Focus for the new summary" }).fill("instructions and numbers");
  await fakeLlm.script(
    { text: "## Goal\nRename `loadConfig` to readConfig in lib/config.ts.\n\n## Constraints & Preferences\n- Never edit the generated folder by hand.\n- Retry timeout 200 ms." },
    { text: "I renamed loadConfig, keeping the constraints." },
  );
  await panel.getByRole("button", { name: "Compact again", exact: true }).click();

  const compare = panel.getByRole("region", { name: "Compare compactions" });
  await expect(compare.getByRole("article")).toHaveCount(2, { timeout: 20_000 });
  const [first, second] = (await readTree(request, id)).entries.filter((e) => e.type === "compaction");
  expect(second!.parentId).toBe(first!.parentId);
  expect(second!.firstKeptEntryId).toBe(first!.firstKeptEntryId);
  expect((await readTree(request, id)).leafId).toBe(first!.id);

  const newer = compare.getByRole("article", { name: `Compaction ${second!.id}` });
  await expect(newer).toContainText("Never edit the generated folder by hand.");
  await expect(compare.getByRole("article", { name: `Compaction ${first!.id}` })).toContainText("in use");
  const score = async (name: string) => Number(/(\d+) of \d+ facts carried/.exec((await compare.getByRole("article", { name }).textContent()) ?? "")?.[1]);
  expect(await score(`Compaction ${second!.id}`)).toBeGreaterThan(await score(`Compaction ${first!.id}`));

  await newer.getByRole("button", { name: "Use this one" }).click();
  await expect.poll(async () => (await readTree(request, id)).leafId).toBe(second!.id);
  await expect(newer).toContainText("in use");
});

test("pin an entry from the canvas; it survives a compaction verbatim", async ({ page, request }) => {
  const id = await chattedSession(page);
  const firstUser = (await readTree(request, id)).entries.find((e) => e.type === "message" && e.message?.role === "user")!;
  await nodeMenu(page, firstUser.id, "Pin");
  await expect(page.getByRole("status")).toContainText("Pinned");
  // The pin entry became the leaf and the canvas followed it: fit again to see the early node.
  await page.getByRole("button", { name: "Fit view" }).click();
  await expect(canvasNode(page, firstUser.id)).toContainText("pinned");

  await compactNow(page);
  const tree = await readTree(request, id);
  const compaction = tree.entries.find((e) => e.type === "compaction")!;
  expect(compaction.pinnedEntryIds).toEqual([firstUser.id]);
  const summarization = (await fakeLlm.requests()).find(isSummarization)!;
  expect(summarization.lastUserText).not.toContain(TURNS[0]!.user);

  // The next turn sees the pinned message verbatim, right after the summary.
  await fakeLlm.reset();
  await chatTurn(page, "Go on.", { text: "Going on." });
  const turn = (await fakeLlm.requests()).find((r) => !isSummarization(r))!;
  const texts = turn.messages.map((m) => JSON.stringify(m.content ?? ""));
  expect(texts.some((t) => t.includes(`Pinned by the user (user message ${firstUser.id}):`) && t.includes(TURNS[0]!.user))).toBe(true);

  // Unpin from the same menu.
  await nodeMenu(page, firstUser.id, "Unpin");
  await expect(page.getByRole("status")).toContainText("Unpinned");
  await page.getByRole("button", { name: "Fit view" }).click();
  await expect(canvasNode(page, firstUser.id)).not.toContainText("pinned");
});

test("from a compaction node: compact again with another model, compare, choose, undo and redo", async ({ page, request }) => {
  const id = await compactedSession(page);
  const [first] = (await readTree(request, id)).entries.filter((e) => e.type === "compaction");
  await nodeMenu(page, first!.id, "Compact again with…");
  const dialog = page.getByRole("dialog", { name: "Compact again with…" });
  await dialog.getByRole("combobox", { name: /^Model/ }).selectOption("openai-compatible/fake-small");
  await dialog.getByRole("textbox", { name: "Focus for the new summary" }).fill("instructions");
  await fakeLlm.reset();
  await fakeLlm.script({ text: "## Goal\nRename `loadConfig`.\n\n## Constraints & Preferences\n- Never edit the generated folder by hand." }, { text: "Renamed." });
  await dialog.getByRole("button", { name: "Compact again", exact: true }).click();

  const compare = dialog.getByRole("region", { name: "Compare compactions" });
  await expect(compare.getByRole("article")).toHaveCount(2, { timeout: 20_000 });
  expect((await fakeLlm.requests()).find(isSummarization)?.model).toBe("fake-small");
  const [, second] = (await readTree(request, id)).entries.filter((e) => e.type === "compaction");
  expect(second!.parentId).toBe(first!.parentId);
  const newer = compare.getByRole("article", { name: `Compaction ${second!.id}` });
  await expect(newer).toContainText("model: openai-compatible/fake-small");
  await newer.getByRole("button", { name: "Use this one" }).click();
  await expect.poll(async () => (await readTree(request, id)).leafId).toBe(second!.id);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);

  // "Compare and choose…" goes back to the first one.
  await nodeMenu(page, second!.id, "Compare and choose…");
  const compareDialog = page.getByRole("dialog", { name: "Compare compactions" });
  await compareDialog.getByRole("article", { name: `Compaction ${first!.id}` }).getByRole("button", { name: "Use this one" }).click();
  await expect.poll(async () => (await readTree(request, id)).leafId).toBe(first!.id);
  await compareDialog.getByRole("button", { name: "Close" }).click();

  // Undo from the canvas, then Redo from the canvas (the compaction is off the path by then).
  await nodeMenu(page, first!.id, "Undo compaction");
  await expect(page.getByRole("status")).toContainText("Compaction undone");
  await expect.poll(async () => (await readTree(request, id)).leafId).toBe(first!.parentId);
  await nodeMenu(page, first!.id, "Redo compaction");
  await expect.poll(async () => (await readTree(request, id)).leafId).toBe(first!.id);
  await expect(messagesLog(page).getByRole("article", { name: "compaction" })).toBeVisible();
});

test("cited summaries: the prompt names the entries, and each [src: …] tag selects its node", async ({ page, request }) => {
  const id = await newSession(page);
  await editSettings(page, async (dialog) => {
    await dialog.getByRole("spinbutton", { name: "Keep recent tokens" }).fill("1000");
    await dialog.getByRole("checkbox", { name: "Summaries cite their sources" }).check();
  });
  for (const t of TURNS) await chatTurn(page, t.user, { text: t.reply, usage: { promptTokens: t.promptTokens, completionTokens: 12 } });
  const firstUser = (await readTree(request, id)).entries.find((e) => e.type === "message" && e.message?.role === "user")!;
  await fakeLlm.reset();
  await page.getByRole("button", { name: "Compact", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Compact session" });
  await fakeLlm.script({ text: `## Goal\n- Rename \`loadConfig\` to readConfig [src: ${firstUser.id}]` }, { text: "Renamed." });
  await dialog.getByRole("button", { name: "Compact" }).click();
  await expect(dialog).toHaveCount(0);
  const asked = (await fakeLlm.requests()).find(isSummarization)!.lastUserText ?? "";
  expect(asked).toContain(`[User] (entry ${firstUser.id}): Rename`);
  expect(asked).toContain("[src: 1a2b3c4d]");

  const panel = inspector(page).getByRole("region", { name: "Compaction fact check" });
  await panel.getByRole("button", { name: `Source entry ${firstUser.id}` }).first().click();
  await expect(canvasNode(page, firstUser.id)).toHaveClass(/\bselected\b/);

  // The chat's compaction row links the same entry.
  const row = messagesLog(page).getByRole("article", { name: "compaction" });
  await row.getByText(/Compacted from/).first().click();
  await expect(row.getByRole("button", { name: firstUser.id })).toBeVisible();
});
