/**
 * Secrets in sessions (docs/secrets.md), in the browser: a session holding FAKE credentials of
 * every kind the scanner knows (test/secret-session.ts) shows their count in the list and on its
 * page, lists them masked with links to their entries, and every way out is masked by default —
 * the HTML and JSONL downloads and the inspector's copy — while the originals come only after a
 * warning, and "Download original" says how many secrets the file holds.
 */
import { readFileSync } from "node:fs";
import type { Download, Page } from "@playwright/test";
import { secretSession, secretSessionJsonl } from "@/test/secret-session";
import { importJsonl } from "./session-helpers";
import { expect, test } from "./test";

const escaped = (v: string) => JSON.stringify(v).slice(1, -1);

async function downloaded(page: Page, click: () => Promise<void>): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), click()]);
  return readFileSync((await (file as Download).path())!, "utf8");
}

/** Accepts the next dialog and returns its message. */
function acceptNextDialog(page: Page): Promise<string> {
  return new Promise((resolve) => page.once("dialog", (d) => void d.accept().then(() => resolve(d.message()))));
}

test("a session with fake credentials: counted, listed masked, and masked in every download and copy", async ({ page, request, context }) => {
  const project = test.info().project.name;
  const word = `credcheck${project}${Date.now()}`;
  const s = secretSession(project === "dark" ? 82 : 81, `e2e-secrets-${word}`);
  const n = s.expected.length;
  const id = await importJsonl(request, "fake-secrets.jsonl", secretSessionJsonl(s), { title: `Fake credentials ${word}` });

  // The list: a badge with the count.
  await page.goto("/");
  await page.getByRole("searchbox", { name: "Search sessions" }).fill(word);
  const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `Fake credentials ${word}` }) });
  await expect(row).toContainText(`${n} secrets`);

  // The session page: the count, then the list (kind, where, masked value, entry link).
  await page.goto(`/sessions/${id}`);
  await page.getByText(`${n} secrets found`).click();
  const list = page.getByRole("region", { name: "Secrets found in this session" });
  await expect(list.getByRole("row")).toHaveCount(n + 1);
  await expect(list).toContainText("GitHub token");
  await expect(list).toContainText("ghp_********");
  await expect(list).toContainText("tool call arguments");
  const listed = (await list.textContent()) ?? "";
  for (const p of s.expected) expect(listed, p.rule).not.toContain(p.value);
  const github = s.expected.find((p) => p.rule === "github/GITHUB_TOKEN")!;
  await list.getByRole("link", { name: github.entryId }).first().click();
  await expect(page).toHaveURL(new RegExp(`\\?entry=${github.entryId}$`));

  // The HTML and JSONL downloads are masked.
  const html = await downloaded(page, () => page.getByRole("link", { name: "Download HTML" }).click());
  expect(html).toContain("ghp_********");
  for (const p of s.expected) expect(html, p.rule).not.toContain(escaped(p.value));
  const jsonl = await downloaded(page, () => page.getByRole("link", { name: "Download JSONL" }).click());
  for (const p of s.expected) expect(jsonl, p.rule).not.toContain(escaped(p.value));

  // The originals only after the warning.
  await page.getByRole("checkbox", { name: "Include secrets" }).check();
  const warned = acceptNextDialog(page);
  const full = await downloaded(page, () => page.getByRole("link", { name: "Download JSONL" }).click());
  expect(await warned).toContain(`${n} secrets unmasked`);
  expect(full).toContain(escaped(github.value));

  // "Download original" says what the file holds first.
  const said = acceptNextDialog(page);
  const original = await downloaded(page, () => page.getByRole("link", { name: "Download original" }).click());
  expect(await said).toContain(`holds ${n} secrets`);
  expect(original).toBe(secretSessionJsonl(s));

  // The inspector's copy of the selected entry is masked.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`/sessions/${id}?entry=${github.entryId}`);
  const inspector = page.getByRole("region", { name: "Context inspector" });
  await inspector.getByRole("tab", { name: "Entry JSON" }).click();
  await expect(inspector.getByRole("figure", { name: `Raw JSON of entry ${github.entryId}` })).toBeVisible();
  await inspector.getByRole("button", { name: "Copy JSON" }).click();
  await expect(inspector.getByRole("status").filter({ hasText: "Copied" })).toHaveText("Copied, 1 secret masked");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(github.entryId);
  expect(copied).toContain("ghp_********");
  expect(copied).not.toContain(github.value);
});
