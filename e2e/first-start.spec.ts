/**
 * A new user's first start (docs/ui.md "Pages", `/`), on the first-start app: a fresh database and
 * a fake home whose agent folders are moved by their variables (e2e/first-start-home.ts). The
 * home page lists the folders with their session files and bytes (counted here from the disk);
 * ticking two and pressing Sync shows the overall progress and fills the list without a reload.
 * Then, the folders being consented, the app keeps them in sync by itself: lines appended to the
 * followed Claude Code file and to a pi file appear in their open pages without a reload.
 * One home and one database: the light project's run uses them, the dark one skips.
 */
import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { formatBytes } from "@/lib/text/byte-size";
import { CLAUDE_DIR, CODEX_DIR, claudeSession, PI_DIR, piSessions } from "./first-start-home";
import { E2E_PORTS } from "./ports";
import { messagesLog } from "./session-helpers";
import { expect, test } from "./test";

const APP = `http://127.0.0.1:${E2E_PORTS.firstStart}`;

/** Session files (`*.jsonl`) below `dir` and their bytes, walked here. */
function onDisk(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith(".jsonl")) continue;
    files += 1;
    bytes += statSync(path.join(e.parentPath, e.name)).size;
  }
  return { files, bytes };
}

test.describe.serial("first start on a fake home", () => {
  test.skip(({ colorScheme }) => colorScheme === "dark", "one fake home and one fresh database: the light project's run uses them");

  test("lists the agent folders with counts; the ticked ones sync with progress and fill the list", async ({ page }) => {
    await page.goto(APP);
    const panel = page.getByRole("region", { name: "Agent folders on this machine" });
    const rows = { claude: panel.getByRole("listitem").filter({ hasText: CLAUDE_DIR }), pi: panel.getByRole("listitem").filter({ hasText: PI_DIR }), codex: panel.getByRole("listitem").filter({ hasText: CODEX_DIR }) };
    for (const [row, dir] of [[rows.claude, CLAUDE_DIR], [rows.pi, PI_DIR], [rows.codex, CODEX_DIR]] as const) {
      const { files, bytes } = onDisk(dir);
      await expect(row).toContainText(`${files} session ${files === 1 ? "file" : "files"}, ${formatBytes(bytes)}`);
    }
    await expect(page.getByRole("list", { name: "Sessions" })).toHaveCount(0);

    // Every progress line the panel shows, recorded as it changes (the sync takes a moment).
    await page.evaluate(() => {
      const seen: string[] = [];
      Object.assign(window, { __progress: seen, __noReload: true });
      new MutationObserver(() => {
        const t = document.querySelector('[data-testid="sync-progress"]')?.textContent;
        if (t && seen.at(-1) !== t) seen.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await rows.claude.getByRole("checkbox").check();
    await rows.pi.getByRole("checkbox").check();
    await panel.getByRole("button", { name: "Sync the ticked folders" }).click();
    await expect(panel).toContainText(/Synced: .* Arbor keeps these folders in sync from now on\./, { timeout: 30_000 });

    const total = onDisk(CLAUDE_DIR).files + onDisk(PI_DIR).files;
    const progress = (await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress)) as string[];
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((t) => new RegExp(`^\\d+ of ${total} files · .+ of .+ · \\d+ sessions? imported`).test(t))).toBe(true);
    await expect(page.getByRole("list", { name: "Sessions" }).getByRole("listitem")).toHaveCount(total);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  });

  test("lines appended to a followed Claude Code file and to a pi file appear in their open pages without a reload", async ({ page, context }) => {
    const cc = claudeSession();
    const pi = piSessions()[0]!;
    const piLines = readFileSync(pi.file, "utf8").split("\n").filter((l) => l !== "");
    const piId = (JSON.parse(piLines[0]!) as { id: string }).id;
    const last = JSON.parse(piLines.at(-1)!) as { id: string };
    const newPrompt = (JSON.parse(cc.tail[0]!) as { message: { content: string } }).message.content;

    const piPage = await context.newPage();
    await page.goto(`${APP}/sessions/${cc.sessionId}`);
    await piPage.goto(`${APP}/sessions/${piId}`);
    for (const p of [page, piPage]) {
      await expect(messagesLog(p).getByRole("article").first()).toBeVisible();
      await p.evaluate(() => Object.assign(window, { __noReload: true }));
    }
    await expect(messagesLog(page)).not.toContainText(newPrompt);

    // The agents write: nothing else syncs, the app's own watcher has to see it.
    appendFileSync(cc.file, `${cc.tail.join("\n")}\n`);
    const line = { type: "message", id: "e2elive1", parentId: last.id, timestamp: new Date().toISOString(), message: { role: "user", content: "a line pi wrote just now", timestamp: Date.now() } };
    appendFileSync(pi.file, `${JSON.stringify(line)}\n`);

    await expect(messagesLog(piPage).getByRole("article", { name: "user message" }).filter({ hasText: "a line pi wrote just now" })).toBeVisible({ timeout: 10_000 });
    await expect(messagesLog(page).getByRole("article", { name: "user message" }).filter({ hasText: newPrompt })).toBeVisible({ timeout: 15_000 });
    for (const p of [page, piPage]) {
      await expect(p.getByText("live", { exact: true })).toBeVisible();
      expect(await p.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    }
  });
});
