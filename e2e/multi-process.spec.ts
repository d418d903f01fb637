/**
 * Two processes of the app on one database (e2e/server.ts starts the second, `appB`, from the
 * same build): what one commits, the other reads; a turn running on one is busy on the other
 * and is stopped from the other.
 */
import { expect, test } from "./test";
import { fakeLlm } from "./fake-llm";
import { E2E_PORTS } from "./ports";
import { chatTurn, messagesLog, newSession, type StoredEntry } from "./session-helpers";

const B = `http://127.0.0.1:${E2E_PORTS.appB}`;

test.beforeEach(async () => {
  await fakeLlm.reset();
});

/** The last stored entry, read through process B's JSON route. */
async function lastEntryOnB(request: import("@playwright/test").APIRequestContext, id: string): Promise<StoredEntry | undefined> {
  const res = await request.get(`${B}/api/sessions/${id}/tree`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { entries: StoredEntry[] }).entries.at(-1);
}

const assistantMessages = (page: import("@playwright/test").Page) =>
  messagesLog(page).getByRole("article", { name: "assistant message", exact: true });

test("a turn sent through one process is read through the other, both ways", async ({ page, context }) => {
  const id = await newSession(page);
  await chatTurn(page, "Hello through A", { text: "Reply saved by process A" });

  const pageB = await context.newPage();
  await pageB.goto(`${B}/sessions/${id}`);
  await expect(messagesLog(pageB).getByRole("article", { name: "user message" })).toContainText("Hello through A");
  await expect(assistantMessages(pageB)).toContainText("Reply saved by process A");

  await chatTurn(pageB, "And hello through B", { text: "Reply saved by process B" });
  await page.reload();
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(assistantMessages(page).last()).toContainText("Reply saved by process B");
});

test("Stop on process B ends a turn running on process A; the partial message is saved", async ({ page, request }) => {
  const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
  await fakeLlm.script({ text: words, chunkSize: 6, delayMs: 100 });
  const id = await newSession(page);
  await page.getByRole("textbox", { name: "Message" }).fill("Tell me a long story");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("article", { name: "assistant message (streaming)" })).toContainText("word3");

  // B knows the session is busy: its own turn is refused with the same 409.
  const busy = await request.post(`${B}/api/chat`, {
    data: { id, message: { id: "m-b", role: "user", parts: [{ type: "text", text: "me too" }] } },
  });
  expect(busy.status()).toBe(409);
  expect(await busy.json()).toEqual({ error: "A turn is already running in this session", code: "busy" });

  const stopped = await request.post(`${B}/api/chat/stop`, { data: { id } });
  expect(await stopped.json()).toEqual({ ok: true, stopped: true });

  // A's turn ends as aborted.
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  // The partial answer is stored, read back through B.
  await expect
    .poll(async () => {
      const last = await lastEntryOnB(request, id);
      return last?.message?.role === "assistant" ? (last.message as { stopReason?: string }).stopReason : undefined;
    })
    .toBe("aborted");
  const last = (await lastEntryOnB(request, id))!;
  const text = ((last.message?.content ?? []) as { type: string; text?: string }[]).map((b) => b.text ?? "").join("");
  expect(text.startsWith("word0 word1")).toBe(true);
  expect(text.length).toBeLessThan(words.length);

  const pageB = await page.context().newPage();
  await pageB.goto(`${B}/sessions/${id}`);
  await expect(assistantMessages(pageB)).toContainText("stopped");
  await expect(assistantMessages(pageB)).toContainText("word0 word1");
  // Nothing runs any more: another Stop through B finds nothing to stop.
  expect(await (await request.post(`${B}/api/chat/stop`, { data: { id } })).json()).toEqual({ ok: true, stopped: false });
});
