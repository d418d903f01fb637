import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "./test";
import { renderSessionHtml } from "@/lib/export-html/render-session-html";
import { generateSession } from "@/test/generators/session";
import { SessionTree } from "@/lib/session/tree/tree";
import type { SessionEntry } from "@/lib/session/types";

/**
 * The HTML export opened from disk (file://), without the app: tree rows, the user-only
 * filter, search, the root → entry path view, a compaction expanded, keyboard selection. The
 * session holds a hostile user message; the page must make no request besides its own file
 * and fire no dialog.
 */
const MARKER = "zebra-marker";
const HOSTILE = `${MARKER} </script><script>alert(1)</script> <img src=x onerror="alert(2)"> <a href="javascript:alert(3)">x</a>`;

function writeExport(): { url: string; compactionSummaries: string[]; leafPathHasCompaction: boolean } {
  const s = generateSession({ seed: 3, entries: 200, branches: 3, compactions: true, labels: 5 });
  const last = s.entries.at(-1)!;
  const hostile: SessionEntry = {
    type: "message",
    id: "feedface",
    parentId: last.id,
    timestamp: new Date(Date.parse(last.timestamp) + 1000).toISOString(),
    message: { role: "user", content: HOSTILE, timestamp: Date.parse(last.timestamp) + 1000 },
  };
  const entries = [...s.entries, hostile];
  const html = renderSessionHtml({ header: s.header, entries, leafId: hostile.id, title: "Exported session" });
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-html-export-"));
  const file = path.join(dir, "session.html");
  writeFileSync(file, html);
  const leafPath = new SessionTree(s.header, entries).getBranch(hostile.id);
  return {
    url: pathToFileURL(file).href,
    compactionSummaries: entries.flatMap((e) => (e.type === "compaction" ? [e.summary] : [])),
    leafPathHasCompaction: leafPath.some((e) => e.type === "compaction"),
  };
}

test("the HTML export works offline: tree, filters, search, path view, compactions", async ({ page }) => {
  const { url, compactionSummaries, leafPathHasCompaction } = writeExport();
  const requests: string[] = [];
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("pageerror", (e) => errors.push(e.message));

  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Exported session", level: 1 })).toBeVisible();
  const tree = page.getByRole("region", { name: "Session tree" });
  const rows = tree.getByRole("listbox", { name: "Entries" }).getByRole("option");
  const pathView = page.getByRole("region", { name: "Path view" });
  const footer = tree.getByRole("status");

  // The tree: rows listed, the current leaf marked and selected, its path shown.
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(50);
  const leafRow = rows.filter({ hasText: "current leaf" });
  await expect(leafRow).toHaveCount(1);
  await expect(leafRow).toContainText(`user: ${MARKER}`);
  await expect(leafRow).toHaveAttribute("aria-selected", "true");
  await expect(rows.filter({ hasText: /\[compaction: \d+k tokens\]/ }).first()).toBeVisible();
  await expect(pathView.getByRole("heading", { name: /^Path from the root to the selected entry/ })).toBeVisible();
  // The hostile text is shown as text, not markup.
  await expect(pathView.getByText("<img src=x onerror=", { exact: false })).toBeVisible();
  if (leafPathHasCompaction) await expect(pathView.getByText("not in the model's context").first()).toBeVisible();

  // Filter: user-only shows only user rows and the [user] footer tag.
  await tree.getByRole("combobox", { name: "Filter" }).selectOption("user-only");
  await expect(footer).toHaveText(/^\(\d+\/\d+\) \[user\]$/);
  const userTexts = await rows.allTextContents();
  expect(userTexts.length).toBeGreaterThan(1);
  for (const text of userTexts) expect(text).toMatch(/^(\[[^\]]+\] )?user: /);

  // Search: one word narrows to the one matching row.
  await tree.getByRole("searchbox", { name: "Search entries" }).fill(MARKER.toUpperCase());
  await expect(rows).toHaveCount(1);
  await expect(footer).toHaveText("(1/1) [user]");
  await tree.getByRole("searchbox", { name: "Search entries" }).fill("no-such-word-anywhere");
  await expect(rows).toHaveCount(0);
  await expect(tree.getByText("No entries found")).toBeVisible();
  await expect(footer).toHaveText("(0/0) [user]");

  // Clicking a row shows the root → row path, ending with that message.
  await tree.getByRole("searchbox", { name: "Search entries" }).fill("");
  const someUser = rows.nth(1);
  const someText = ((await someUser.textContent()) ?? "")
    .replace(/(, on the active path)?(current leaf)?(first kept)?$/, "")
    .replace(/^(\[[^\]]+\] )?user: /, "")
    .slice(0, 40);
  await someUser.click();
  await expect(someUser).toHaveAttribute("aria-selected", "true");
  const lastItem = pathView.getByRole("list", { name: "Path from the root" }).getByRole("listitem").last();
  await expect(lastItem).toContainText("selected");
  await expect(lastItem).toContainText(someText.trim());

  // Keyboard: ↓ moves the selection and shows its path.
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(2)).toHaveAttribute("aria-selected", "true");
  await expect(footer).toHaveText(/^\(3\/\d+\) \[user\]$/);

  // A compaction: select it, then expand its summary in the path view.
  await tree.getByRole("combobox", { name: "Filter" }).selectOption("default");
  await expect(footer).toHaveText(/^\(\d+\/\d+\)$/);
  await rows.filter({ hasText: /\[compaction: \d+k tokens\]/ }).first().click();
  const compactionItem = pathView.getByRole("list", { name: "Path from the root" }).getByRole("listitem").last();
  await expect(compactionItem).toContainText("[compaction]");
  const details = compactionItem.getByRole("group");
  await expect(details).not.toHaveAttribute("open", "");
  await compactionItem.getByText(/^Compacted from [\d,.\s]+ tokens/).click();
  await expect(details).toHaveAttribute("open", "");
  await expect(compactionItem.getByRole("strong")).toHaveText(/^Compacted from [\d,.\s]+ tokens$/);
  const summary = compactionItem.getByRole("group").locator("pre");
  await expect(summary).toBeVisible();
  expect(compactionSummaries).toContain(await summary.textContent());

  expect(requests).toEqual([url]);
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
});
