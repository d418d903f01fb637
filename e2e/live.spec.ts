/**
 * Live sessions (docs/ui.md "Live sessions"): an agent appends to a Claude Code file a folder sync
 * follows; the open session page — in this process and in the second app process on the same
 * database — shows the new messages without a reload, and the "live" badge appears.
 */
import { appendFileSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./test";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { E2E_PORTS, E2E_SYNC_ROOT } from "./ports";
import { messagesLog } from "./session-helpers";

const B = `http://127.0.0.1:${E2E_PORTS.appB}`;

/** One sync of `folder` through the sync API of the app at `base`; resolves once its run summary came. */
async function syncOnce(request: APIRequestContext, base: string, folder: string): Promise<string> {
  const res = await request.post(`${base}/api/sync`, { data: { folders: [folder] } });
  expect(res.ok()).toBe(true);
  const body = await res.text();
  expect(body).toContain('"type":"run"');
  return body;
}

test("lines an agent appends to a followed Claude Code file appear in the open page of both app processes without a reload", async ({ page, context, request }) => {
  const gen = generateClaudeCodeSession({ seed: 7301 + (test.info().project.name === "dark" ? 1000 : 0) + Math.floor(Date.now() % 100_000), turns: 3 });
  const folder = mkdtempSync(path.join(E2E_SYNC_ROOT, "live-"));
  const file = path.join(folder, `${gen.sessionId}.jsonl`);
  const lines = gen.text.split("\n").filter((l) => l !== "" && !l.startsWith('{"type":"summary"'));
  const cut = lines.findIndex((l) => /"type":"user","message":\{"role":"user","content":"Turn 2:/.test(l));
  expect(cut).toBeGreaterThan(0);
  const newPrompt = (JSON.parse(lines[cut]!) as { message: { content: string } }).message.content;
  writeFileSync(file, `${lines.slice(0, cut).join("\n")}\n`);
  const old = new Date(Date.now() - 120_000);
  utimesSync(file, old, old);
  await syncOnce(request, "", folder);

  await page.goto(`/sessions/${gen.sessionId}`);
  const pageB = await context.newPage();
  await pageB.goto(`${B}/sessions/${gen.sessionId}`);
  for (const p of [page, pageB]) {
    await expect(messagesLog(p).getByRole("article", { name: "user message" }).first()).toBeVisible();
    await expect(messagesLog(p)).not.toContainText(newPrompt);
    // A mark a reload would wipe.
    await p.evaluate(() => Object.assign(window, { __noReload: true }));
  }

  // The agent writes its next turn; a sync (through process B) commits it.
  appendFileSync(file, `${lines.slice(cut).join("\n")}\n`);
  utimesSync(file, old, new Date(Date.now() - 60_000));
  await syncOnce(request, B, folder);

  for (const p of [page, pageB]) {
    await expect(messagesLog(p).getByRole("article", { name: "user message" }).filter({ hasText: newPrompt })).toBeVisible({ timeout: 5_000 });
    await expect(p.getByText("live", { exact: true })).toBeVisible();
    expect(await p.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  }
});
