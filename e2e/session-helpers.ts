/**
 * Helpers shared by the workspace e2e specs (compaction, canvas, inspector): create a session,
 * chat a scripted turn, read the stored tree, change a session setting — all through the UI or
 * the app's own JSON routes, with role-based locators (conventions rule 9).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import type { FakeReplyStep } from "@/test/fake-llm-steps";
import { fakeLlm } from "./fake-llm";

export const FIXTURES = process.env.ARBOR_FIXTURES ?? path.resolve(process.cwd(), "../shared/fixtures");
export const LARGE = path.join(FIXTURES, "large-session.jsonl");
export const hasLargeFixture = existsSync(LARGE);
export const LARGE_MISSING = `fixture not found: ${LARGE} (set ARBOR_FIXTURES to the shared fixtures folder)`;

/** A stored entry as GET /api/sessions/<id>/tree returns it (only the fields the specs read). */
export interface StoredEntry {
  type: string;
  id: string;
  parentId: string | null;
  message?: { role: string; content?: unknown };
  summary?: string;
  firstKeptEntryId?: string;
  tokensBefore?: number;
  [key: string]: unknown;
}

export async function readTree(request: APIRequestContext, sessionId: string): Promise<{ leafId: string | null; entries: StoredEntry[] }> {
  const res = await request.get(`/api/sessions/${sessionId}/tree`);
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { session: { leafId: string | null }; entries: StoredEntry[] };
  return { leafId: body.session.leafId, entries: body.entries };
}

/** "New session" on the home page; returns the new session's id. */
export async function newSession(page: Page): Promise<string> {
  await page.goto("/");
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  return page.url().split("/").pop()!;
}

export const messagesLog = (page: Page) => page.getByRole("log", { name: "Messages" });

/** Types a message and sends it; waits until the turn is over (Send is back). */
export async function send(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
}

/** One chat turn answered by `reply` (scripted on the fake model); waits for the reply in the chat. */
export async function chatTurn(page: Page, text: string, reply: FakeReplyStep & { text: string }): Promise<void> {
  await fakeLlm.script(reply);
  await send(page, text);
  await expect(messagesLog(page).getByRole("article", { name: "assistant message", exact: true }).last()).toContainText(reply.text);
}

/** Opens "Settings" above the composer, lets `edit` change the form, saves. */
export async function editSettings(page: Page, edit: (dialog: ReturnType<Page["getByRole"]>) => Promise<void>): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Session settings" });
  await expect(dialog).toBeVisible();
  await edit(dialog);
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog).toHaveCount(0);
}

/** The number the context meter shows ("6,012 of fake-model's 32k (19%)" → 6012; "~1,234 of …" → 1234). */
export async function meterTokens(page: Page): Promise<number> {
  const text = (await page.getByTestId("context-meter-text").textContent()) ?? "";
  const m = /~?([\d,.]+)(k?)\s+of\s/.exec(text);
  if (!m) throw new Error(`context meter text not understood: ${text}`);
  const n = Number(m[1]!.replace(/,/g, ""));
  return m[2] ? n * 1000 : n;
}

/** A request the app sent to the fake model that is a summarization call (test/fake-llm-steps.ts). */
export function isSummarization(r: { system?: string; lastUserText?: string }): boolean {
  return /summar/i.test(r.system ?? "") && (r.lastUserText ?? "").includes("<conversation>");
}

/**
 * Imports a JSONL body through POST /api/import; returns the new session's id. `asCopy` keeps
 * an earlier import of the same file (another spec may have imported the fixture already).
 */
export async function importJsonl(request: APIRequestContext, fileName: string, body: string | Buffer, opts: { asCopy?: boolean; title?: string } = {}): Promise<string> {
  const title = opts.title ? `&title=${encodeURIComponent(opts.title)}` : "";
  const res = await request.post(`/api/import?fileName=${encodeURIComponent(fileName)}${opts.asCopy ? "&asCopy=1" : ""}${title}`, {
    data: body,
    headers: { "content-type": "application/octet-stream" },
    timeout: 120_000,
  });
  const text = await res.text();
  expect(res.ok(), text).toBe(true);
  const done = text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; sessionId?: string })
    .find((e) => e.type === "done");
  expect(done?.sessionId, text.slice(-500)).toBeTruthy();
  return done!.sessionId!;
}

export const COMPACTABLE_TURNS = [
  {
    user: "Decision about X: we keep the sessions in PostgreSQL, not in flat files, because branches need transactions and full-text search.",
    reply: "Noted: PostgreSQL for X.",
    promptTokens: 2000,
  },
  {
    user: "Second decision about X: the canvas uses React Flow with our own tidy-tree layout, because dagre is too slow on ten thousand entries.",
    reply: "Noted: React Flow for X.",
    promptTokens: 4000,
  },
  {
    user: "Now write the migration plan for X: which tables, which indexes, and how the importer streams the file into them in one transaction.",
    reply: "Here is the migration plan.",
    promptTokens: 6000,
  },
];

/**
 * Three turns whose reported usage (6,012 tokens at the end) is far above the chars/4 estimate,
 * so prepareCompaction's ratio rule (session-engine.md §5.4 step 5) shrinks "Keep recent tokens" (set to 1000
 * here; the default 20000 keeps everything below the 32k window's threshold) to ~30 tokens: the
 * cut lands on the third user message, two turns are summarised and the last one is kept.
 */
export async function chatCompactableTurns(page: Page): Promise<void> {
  await editSettings(page, async (dialog) => {
    await dialog.getByRole("spinbutton", { name: "Keep recent tokens" }).fill("1000");
  });
  for (const t of COMPACTABLE_TURNS) await chatTurn(page, t.user, { text: t.reply, usage: { promptTokens: t.promptTokens, completionTokens: 12 } });
  await expect(page.getByTestId("context-meter-text")).toHaveText("6,012 of fake-model's 32k (19%)");
}

/**
 * Deletes a session from the home page's list (row menu → Delete), found by a full-text
 * `search` that matches it. Specs that import the shared fixture delete their copy afterwards,
 * so a later spec's search for the fixture's words finds only its own import.
 */
export async function deleteFromList(page: Page, request: APIRequestContext, sessionId: string, search: string): Promise<void> {
  await page.goto("/");
  await page.getByRole("searchbox", { name: "Search sessions" }).fill(search);
  const row = page
    .getByRole("list", { name: "Sessions" })
    .getByRole("listitem")
    .filter({ has: page.locator(`a[href^="/sessions/${sessionId}"]`) });
  const toast = page.getByRole("status").filter({ hasText: "Session moved to the Trash" });
  // The search's results in, before a click: the rows they replace can be clicked meanwhile.
  await expect(page.getByRole("list", { name: "Sessions" })).toHaveAttribute("aria-busy", "false");
  await expect(row).toHaveCount(1);
  // One more try when the first click on Delete starts nothing: seen 2 times in ~5 full e2e runs
  // on this loaded machine right after a session page was left (no server action was sent; the
  // menu stayed open), and once the menu did not open (the rows moved as the search's results
  // came in); not understood yet (docs/ui.md names it under "Known issues").
  for (let attempt = 0; ; attempt++) {
    const menu = page.getByRole("menu", { name: "Session actions" });
    if (!(await menu.isVisible())) await row.getByRole("button", { name: "Session actions" }).click();
    try {
      await expect(menu).toBeVisible({ timeout: 5_000 });
    } catch (error) {
      if (attempt > 0) throw error;
      continue;
    }
    await menu.getByRole("menuitem", { name: "Delete" }).click();
    try {
      await expect(toast).toBeVisible({ timeout: attempt === 0 ? 8_000 : 10_000 });
      break;
    } catch (error) {
      if (attempt > 0 || (await request.get(`/api/sessions/${sessionId}`)).status() === 404) throw error;
    }
  }
  await expect.poll(async () => (await request.get(`/api/sessions/${sessionId}`)).status()).toBe(404);
}

/** Drops files on the home page's "Import session" zone the way a browser does (a DataTransfer of Files). */
export async function dropFiles(page: Page, files: { name: string; text: string }[]) {
  const zone = page.getByRole("region", { name: "Import session" });
  const data = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: "application/jsonl" }));
    return dt;
  }, files);
  await zone.dispatchEvent("dragenter", { dataTransfer: data });
  await zone.dispatchEvent("dragover", { dataTransfer: data });
  await zone.dispatchEvent("drop", { dataTransfer: data });
}
