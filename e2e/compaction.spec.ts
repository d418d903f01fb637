import { expect, test } from "./test";
import { fakeLlm } from "./fake-llm";
import { FAKE_CONTEXT_WINDOW } from "./ports";
import { COMPACTABLE_TURNS, chatCompactableTurns, chatTurn, isSummarization, messagesLog, meterTokens, newSession, readTree, send } from "./session-helpers";

/**
 * Compaction in the browser (issue 5; session-engine.md §13): `/compact [focus]` with its preview, the summary
 * streaming in and the compaction row; Cancel writes nothing; a threshold compaction with the
 * synthetic "Continue if you have next steps." turn; overflow recovery and its one-attempt limit.
 */

test.beforeEach(async () => {
  await fakeLlm.reset();
});

const OVERFLOW = {
  kind: "error",
  status: 400,
  body: { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens." } },
} as const;

const SUMMARY = "## Goal\nBuild X.\n\n## Decisions\n- PostgreSQL for sessions\n- React Flow for the canvas\n\n## Next Steps\n1. Write the migration plan";

test("/compact with a focus: preview, the summary streams in, the compaction row, the meter drops to an estimate", async ({ page, request }) => {
  const id = await newSession(page);
  await chatCompactableTurns(page);
  const before = await meterTokens(page);

  // The slash command opens the dialog with the focus instead of sending a message.
  await page.getByRole("textbox", { name: "Message" }).fill("/compact keep the decisions about X");
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  const dialog = page.getByRole("dialog", { name: "Compact session" });
  await expect(dialog).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("");
  await expect(dialog).toContainText("Focus: keep the decisions about X");
  await expect(dialog).toContainText("Summarise 4 messages, keep the last 2 messages verbatim.");
  await expect(dialog).toContainText(`The model's memory will start at: user: ${COMPACTABLE_TURNS[2]!.user}`);
  await expect(dialog).toContainText("Context now: 6,012 tokens");

  // The history summary streams slowly; the short summary answers at once.
  await fakeLlm.script({ text: SUMMARY, chunkSize: 8, delayMs: 60 }, { text: "Chose PostgreSQL and React Flow for X." });
  await dialog.getByRole("button", { name: "Compact" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Summarizing…");
  await expect(dialog.getByRole("log", { name: "Summary so far" })).toContainText("## Goal");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeVisible();
  await expect(dialog).toHaveCount(0, { timeout: 20_000 });

  const row = messagesLog(page).getByRole("article", { name: "compaction" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("[compaction]");
  await expect(row).toContainText("Compacted from 6,012 tokens — Chose PostgreSQL and React Flow for X.");
  // The summarised turns stay visible, muted; the kept turn is still in context.
  await expect(messagesLog(page).getByText("Not in the model's context (summarised by a compaction)")).toHaveCount(4);

  await expect(page.getByTestId("context-meter-text")).toContainText("estimated");
  const after = await meterTokens(page);
  expect(after).toBeLessThan(before);
  expect(after).toBeGreaterThan(0);

  const summarizations = (await fakeLlm.requests()).filter(isSummarization);
  expect(summarizations.some((r) => r.lastUserText?.includes("Additional focus: keep the decisions about X"))).toBe(true);

  // Stored: one compaction, naming the third user message as the first kept entry; survives a reload.
  const tree = await readTree(request, id);
  const compactions = tree.entries.filter((e) => e.type === "compaction");
  expect(compactions).toHaveLength(1);
  const kept = tree.entries.find((e) => e.id === compactions[0]!.firstKeptEntryId);
  expect(kept?.message).toMatchObject({ role: "user", content: COMPACTABLE_TURNS[2]!.user });
  await page.reload();
  await expect(messagesLog(page).getByRole("article", { name: "compaction" })).toContainText("Compacted from 6,012 tokens");
});

test("Cancel while summarising writes nothing", async ({ page, request }) => {
  const id = await newSession(page);
  await chatCompactableTurns(page);
  const before = await readTree(request, id);

  await page.getByRole("button", { name: "Compact", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Compact session" });
  await expect(dialog).toContainText("Summarise 4 messages");
  await fakeLlm.script({ text: SUMMARY.repeat(20), chunkSize: 4, delayMs: 100 });
  await dialog.getByRole("button", { name: "Compact" }).click();
  await expect(dialog.getByRole("log", { name: "Summary so far" })).toContainText("## Goal");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Compaction cancelled — nothing was written.");
  // The server let go of the model call.
  await expect.poll(async () => (await fakeLlm.requests()).filter(isSummarization).at(-1)?.clientClosed).toBe(true);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);

  await expect(messagesLog(page).getByRole("article", { name: "compaction" })).toHaveCount(0);
  const after = await readTree(request, id);
  expect(after.entries).toHaveLength(before.entries.length);
  expect(after.leafId).toBe(before.leafId);
  await page.reload();
  await expect(messagesLog(page).getByRole("article", { name: "assistant message", exact: true })).toHaveCount(3);
  await expect(messagesLog(page).getByRole("article", { name: "compaction" })).toHaveCount(0);
  await expect(page.getByTestId("context-meter-text")).toHaveText("6,012 of fake-model's 32k (19%)");
});

test("a threshold compaction runs by itself, then the synthetic continue turn and its reply", async ({ page, request }) => {
  const id = await newSession(page);
  await chatTurn(page, "Plan the import of X.", { text: "Step one: read the header.", usage: { promptTokens: 3000, completionTokens: 10 } });
  await chatTurn(page, "And then?", { text: "Step two: stream the entries.", usage: { promptTokens: 6000, completionTokens: 10 } });
  // Past contextWindow − reserveTokens (32000 − 16384): the run ends with an automatic compaction.
  const threshold = FAKE_CONTEXT_WINDOW - 16_384;
  await fakeLlm.script({ text: "Step three: commit the transaction.", usage: { promptTokens: threshold + 4_000, completionTokens: 10 } });
  await page.getByRole("textbox", { name: "Message" }).fill("Finish the plan.");
  await page.getByRole("button", { name: "Send" }).click();

  const log = messagesLog(page);
  await expect(log.getByRole("article", { name: "compaction" })).toContainText(`Compacted from ${(threshold + 4_010).toLocaleString("en-US")} tokens`, { timeout: 30_000 });
  const continueTurn = log.getByRole("article", { name: "user message" }).filter({ hasText: "Continue if you have next steps." });
  await expect(continueTurn).toContainText("User (automatic)");
  await expect(log.getByRole("article", { name: "assistant message", exact: true }).last()).toContainText("Echo: Continue if you have next steps.", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // Stored in order: …, the reply that crossed the threshold, the compaction, the synthetic prompt, its reply.
  const tree = await readTree(request, id);
  const types = tree.entries.map((e) => (e.type === "message" ? e.message!.role : e.type));
  const at = types.lastIndexOf("compaction");
  expect(types.slice(at - 1, at + 3)).toEqual(["assistant", "compaction", "user", "assistant"]);
  expect(tree.entries[at + 1]!.message).toMatchObject({ role: "user", synthetic: true });
  await page.reload();
  await expect(messagesLog(page).getByRole("article", { name: "compaction" })).toHaveCount(1);
});

test("overflow recovery: compact and retry once; a second overflow in the same prompt fails in plain words", async ({ page }) => {
  await newSession(page);
  await chatTurn(page, "Read the big log file.", { text: "It is long.", usage: { promptTokens: 3000, completionTokens: 10 } });

  // The overflow error, then (default echo) the summary calls and the retried turn.
  await fakeLlm.script(OVERFLOW);
  await send(page, "Summarise the log for me.");
  const log = messagesLog(page);
  await expect(log.getByRole("article", { name: "compaction" })).toHaveCount(1);
  await expect(log.getByRole("article", { name: "assistant message", exact: true }).last()).toContainText("Echo: Summarise the log for me.");
  const first = await fakeLlm.requests();
  expect(first.map((r) => (isSummarization(r) ? "summary" : "chat"))).toEqual(["chat", "chat", ...first.slice(2, -1).map(() => "summary"), "chat"]);
  const summaryCalls = first.length - 3;
  expect(summaryCalls).toBeGreaterThan(0);

  // Next prompt: the overflow again, the same summary calls, and the retry overflows too.
  await fakeLlm.reset();
  await fakeLlm.script(OVERFLOW, ...Array.from({ length: summaryCalls }, () => ({ text: "Short summary of the log." })), OVERFLOW);
  await send(page, "Once more, with all the details.");
  await expect(log.getByRole("alert").filter({ hasText: "Context overflow recovery failed" })).toBeVisible();
  const second = await fakeLlm.requests();
  expect(second.map((r) => (isSummarization(r) ? "summary" : "chat"))).toEqual(["chat", ...Array(summaryCalls).fill("summary"), "chat"]);
});
